package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/untrusted"
)

// Detect says which kind of source path holds, from what is in it: a
// Claude memory directory (or a projects/ tree of them), a GEMINI.md with
// Gemini's saved memories, the memory server's JSON lines, a SQLite
// database (claude-mem), a mem0/OpenMemory export, or basic-memory notes.
func Detect(path string) (Kind, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	}
	if fi.IsDir() {
		return detectDir(path)
	}
	head, err := untrusted.ReadFile(path, "", MaxFile)
	if err != nil {
		if fi.Mode().IsRegular() && fi.Size() > MaxFile && isSQLite(path) {
			return ClaudeMem, nil
		}
		return "", &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	}
	if filepath.Base(path) == "MEMORY.md" && strings.Contains(filepath.ToSlash(path), "/.gemini/") {
		return Gemini, nil
	}
	if k := detectFile(filepath.Base(path), head); k != "" {
		return k, nil
	}
	return "", &InputError{Msg: fmt.Sprintf("cannot tell what %s holds: name the source with --from (claude, gemini, mcp-memory, basic-memory, mem0, claude-mem)", path)}
}

// detectFile tells a source file's kind from its name and content; "" when
// it cannot.
func detectFile(name string, data []byte) Kind {
	trimmed := bytes.TrimSpace(data)
	switch {
	case bytes.HasPrefix(data, []byte("SQLite format 3\x00")):
		return ClaudeMem
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return Mem0
	case bytes.Contains(data, []byte(GeminiHeader)):
		return Gemini
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		first, _, _ := bytes.Cut(trimmed, []byte("\n"))
		var g GraphLine
		if json.Unmarshal(first, &g) == nil && (g.Type == "entity" || g.Type == "relation") {
			return MCPMemory
		}
		if _, err := ParseMem0(data); err == nil {
			return Mem0
		}
	case strings.HasSuffix(name, ".md"):
		if isNote(data) {
			return BasicMemory
		}
		if claudeTopic(data) {
			return Claude
		}
	}
	return ""
}

func detectDir(path string) (Kind, error) {
	if strings.Contains(filepath.ToSlash(path)+"/", "/.gemini/") {
		return Gemini, nil // ~/.gemini, or a private project memory folder in it
	}
	if dirs, err := ClaudeDirs(path); err == nil && len(dirs) > 0 {
		return Claude, nil
	}
	if data, err := untrusted.ReadFile(filepath.Join(path, "GEMINI.md"), path, MaxFile); err == nil && bytes.Contains(data, []byte(GeminiHeader)) {
		return Gemini, nil
	}
	found := Kind("")
	n := 0
	_ = filepath.WalkDir(path, func(p string, e os.DirEntry, err error) error {
		if err != nil || found != "" || n > 200 {
			return filepath.SkipAll
		}
		if e.IsDir() && p != path && strings.HasPrefix(e.Name(), ".") {
			return filepath.SkipDir
		}
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			return nil
		}
		n++
		if data, err := untrusted.ReadFile(p, path, MaxFile); err == nil && isNote(data) {
			found = BasicMemory
		}
		return nil
	})
	if found != "" {
		return found, nil
	}
	return "", &InputError{Msg: fmt.Sprintf("cannot tell what %s holds: name the source with --from (claude, gemini, mcp-memory, basic-memory, mem0, claude-mem)", path)}
}

// isNote reports whether data is a basic-memory note: frontmatter with a
// permalink.
func isNote(data []byte) bool {
	fm, _, err := frontmatter.Split(data)
	return err == nil && bytes.Contains(fm, []byte("permalink:"))
}

func isSQLite(path string) bool {
	f, err := untrusted.Open(path, "")
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.Read(head)
	return string(head[:n]) == "SQLite format 3\x00"
}
