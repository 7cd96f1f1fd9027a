package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
	"github.com/memdir/memdir/untrusted"
)

// Claude Code's auto memory (2.1.332): a directory per project,
// <config>/projects/<slug>/memory/, holding MEMORY.md (the index Claude
// loads at session start) and one markdown file per memory with name,
// description and type in YAML frontmatter: memdir's own topic format.
// PATH is one such directory, or a projects/ directory (every project's
// memory/ inside it), or a Claude config directory (its projects/).

// ClaudeDirs lists the memory directories a Claude source path holds:
// the path itself when it is a memory directory, else every
// projects/*/memory below it.
func ClaudeDirs(path string) ([]string, error) {
	if isClaudeMemoryDir(path) {
		return []string{path}, nil
	}
	projects := path
	if fi, err := os.Stat(filepath.Join(path, "projects")); err == nil && fi.IsDir() {
		projects = filepath.Join(path, "projects")
	}
	es, err := os.ReadDir(projects)
	if err != nil {
		return nil, &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	}
	var out []string
	for _, e := range es {
		dir := filepath.Join(projects, e.Name(), "memory")
		if e.IsDir() && isClaudeMemoryDir(dir) {
			out = append(out, dir)
		}
	}
	return out, nil
}

// isClaudeMemoryDir reports whether dir holds a MEMORY.md or a markdown
// file with Claude's memory frontmatter.
func isClaudeMemoryDir(dir string) bool {
	if fi, err := os.Lstat(filepath.Join(dir, index.IndexName)); err == nil && fi.Mode().IsRegular() {
		return true
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for i, e := range es {
		if i >= 200 {
			break
		}
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		data, err := untrusted.ReadFile(filepath.Join(dir, e.Name()), dir, MaxFile)
		if err == nil && claudeTopic(data) {
			return true
		}
	}
	return false
}

// claudeTopic reports whether data starts with frontmatter naming a type.
func claudeTopic(data []byte) bool {
	fm, _, err := frontmatter.Split(data)
	return err == nil && strings.Contains(string(fm), "type:")
}

func readClaude(path string) ([]Memory, []Skip, error) {
	dirs, err := ClaudeDirs(path)
	if err != nil {
		return nil, nil, err
	}
	if len(dirs) == 0 {
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s holds no Claude Code memory directory (MEMORY.md or memory files)", path)}
	}
	var mems []Memory
	var skips []Skip
	files := 0
	for _, dir := range dirs {
		m, s, err := readClaudeDir(dir, &files)
		if err != nil {
			return nil, nil, err
		}
		mems, skips = append(mems, m...), append(skips, s...)
	}
	return mems, skips, nil
}

// readClaudeDir reads one memory directory: its topic files, and the
// lines of its MEMORY.md that are notes rather than entries.
func readClaudeDir(dir string, files *int) ([]Memory, []Skip, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("read %s: %v", dir, err), Err: err}
	}
	var mems []Memory
	var skips []Skip
	for _, e := range es {
		name := e.Name()
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		if *files++; *files > MaxFiles {
			return nil, nil, &InputError{Msg: fmt.Sprintf("%s: more than %d files; import one project's directory at a time", dir, MaxFiles)}
		}
		p := filepath.Join(dir, name)
		data, err := untrusted.ReadFile(p, dir, MaxFile)
		if err != nil {
			skips = append(skips, Skip{Source: p, Reason: unreadable(err)})
			continue
		}
		if name == index.IndexName {
			if notes := indexNotes(data); len(notes) > 0 {
				mems = append(mems, Memory{Source: p, File: index.IndexName, Text: strings.Join(notes, "\n")})
			}
			continue
		}
		if m, ok := claudeMemory(p, name, data); ok {
			mems = append(mems, m)
		} else {
			skips = append(skips, Skip{Source: p, Reason: "not a memory file (no frontmatter with a name, nor any text)"})
		}
	}
	return mems, skips, nil
}

// claudeMemory is one topic file: kept whole for a byte-for-byte copy,
// with its fields read for add when it cannot be copied as it is.
func claudeMemory(path, name string, data []byte) (Memory, bool) {
	m := Memory{Source: path, File: name, Raw: data}
	if t, err := memdir.ParseTopic(name, data); err == nil {
		m.Type, m.Name, m.Description, m.Text, m.Tags = t.Type, t.Name, t.Description, t.Body, t.Tags
		m.Date = t.Modified
		return m, true
	}
	// Not memdir's format: the file's words, named after the file.
	_, body, _ := frontmatter.Split(data)
	m.Text = strings.TrimSpace(string(body))
	m.Name = strings.TrimSuffix(name, ".md")
	for _, t := range typesx.Types {
		if rest, ok := strings.CutPrefix(m.Name, string(t)+"_"); ok {
			m.Type, m.Name = t, rest
		}
	}
	m.Name = strings.NewReplacer("_", " ", "-", " ").Replace(m.Name)
	return m, m.Text != "" && strings.TrimSpace(m.Name) != ""
}

// indexNotes are the lines of a MEMORY.md that Claude shows as they are
// and that are not entries: notes written straight into the index.
// Headings, blank lines and one-line HTML comments are left out.
func indexNotes(data []byte) []string {
	var out []string
	for _, l := range index.Parse(data).Lines {
		t := strings.TrimSpace(l.Raw)
		if l.Entry != nil || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->") {
			continue
		}
		out = append(out, strings.TrimRight(l.Raw, "\r"))
	}
	return slices.Clip(out)
}

// unreadable says why a source file was skipped.
func unreadable(err error) string {
	var ue *untrusted.Error
	if errors.As(err, &ue) {
		return "not read: " + ue.Error()
	}
	if errors.Is(err, fs.ErrPermission) {
		return "not read: permission denied"
	}
	return "not read: " + err.Error()
}
