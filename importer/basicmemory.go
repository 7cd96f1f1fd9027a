package importer

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/untrusted"
)

// basic-memory (basicmachines-co/basic-memory 0.15,
// src/basic_memory/markdown/markdown_processor.py): a project directory
// of markdown notes, each with frontmatter title, type and permalink (and
// any metadata, tags among them), a body that starts "# <title>", then
// observations ("- [category] content #tag (context)") and relations
// ("- relation_type [[Target]]"). A note becomes one topic named by its
// title, its body kept as written but for the title heading. Hidden
// folders (.basic-memory, .git) are not walked.

// NoteMeta is what memdir reads of a basic-memory note's frontmatter.
type NoteMeta struct {
	Title     string    `yaml:"title"`
	Type      string    `yaml:"type"`
	Permalink string    `yaml:"permalink"`
	Tags      yaml.Node `yaml:"tags"`
	Created   string    `yaml:"created"`
	Modified  string    `yaml:"modified"`
}

// ParseNote reads one note: its metadata and its body.
func ParseNote(data []byte) (NoteMeta, string, error) {
	var m NoteMeta
	yml, body, err := frontmatter.Split(data)
	if err != nil {
		return m, "", err
	}
	if len(yml) > 64<<10 {
		return m, "", fmt.Errorf("frontmatter over 64 KiB")
	}
	if err := yaml.Unmarshal(yml, &m); err != nil {
		return m, "", fmt.Errorf("frontmatter: %w", err)
	}
	text := strings.TrimSpace(string(body))
	if first, rest, _ := strings.Cut(text, "\n"); strings.TrimSpace(strings.TrimPrefix(first, "# ")) == strings.TrimSpace(m.Title) && strings.HasPrefix(first, "# ") {
		text = strings.TrimSpace(rest)
	}
	return m, text, nil
}

// tags reads tags written as a list or as one comma-separated string.
func (m NoteMeta) tags() []string {
	var raw []string
	switch m.Tags.Kind {
	case yaml.SequenceNode:
		for _, n := range m.Tags.Content {
			raw = append(raw, n.Value)
		}
	case yaml.ScalarNode:
		raw = strings.Split(m.Tags.Value, ",")
	}
	var out []string
	for _, t := range raw {
		if t = tag(strings.TrimPrefix(strings.TrimSpace(t), "#")); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func readBasicMemory(path string) ([]Memory, []Skip, error) {
	var mems []Memory
	var skips []Skip
	files := 0
	root := path
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		root = filepath.Dir(path)
	}
	err := filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		if e.IsDir() {
			if p != path && (strings.HasPrefix(e.Name(), ".") || strings.Count(rel, string(filepath.Separator)) >= MaxDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(e.Name(), ".md") {
			return nil
		}
		if files++; files > MaxFiles {
			return &InputError{Msg: fmt.Sprintf("%s: more than %d notes; import one folder at a time", path, MaxFiles)}
		}
		m, reason := readNote(p, root, e.Name())
		if reason != "" {
			skips = append(skips, Skip{Source: p, Reason: reason})
		} else {
			mems = append(mems, m)
		}
		return nil
	})
	if err != nil {
		if IsInput(err) {
			return nil, nil, err
		}
		return nil, nil, &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	}
	return mems, skips, nil
}

// readNote reads one note into a memory, or says why not.
func readNote(p, root, name string) (Memory, string) {
	data, err := untrusted.ReadFile(p, root, MaxFile)
	if err != nil {
		return Memory{}, unreadable(err)
	}
	meta, text, err := ParseNote(data)
	if err != nil {
		return Memory{}, "not a basic-memory note: " + err.Error()
	}
	if meta.Title == "" {
		meta.Title = strings.TrimSuffix(name, ".md")
	}
	if text == "" {
		return Memory{}, "an empty note"
	}
	m := Memory{Source: p, Name: strings.TrimSpace(meta.Title), Text: text, Tags: meta.tags()}
	for _, d := range []string{meta.Modified, meta.Created} {
		if t, err := time.Parse(time.RFC3339, d); err == nil {
			m.Date = t
			break
		}
	}
	if m.Date.IsZero() {
		if fi, err := os.Stat(p); err == nil {
			m.Date = fi.ModTime()
		}
	}
	return m, ""
}
