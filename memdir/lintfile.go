package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/typesx"
)

// lintTopic checks what parsing lets through in one topic file: text that
// is not UTF-8, a frontmatter key given twice, a name with invisible
// characters, and a type that contradicts the file name's prefix.
func lintTopic(t *Topic, raw []byte) []Finding {
	var out []Finding
	add := func(kind, level string, line int, format string, a ...any) {
		out = append(out, Finding{Kind: kind, Level: level, File: t.File, Line: line, Msg: fmt.Sprintf(format, a...)})
	}
	if !utf8.Valid(raw) {
		add("encoding", LevelError, firstInvalidLine(raw), "not valid UTF-8: memory is plain text; convert the file (iconv -t UTF-8)")
	}
	for _, dup := range duplicateKeys(raw) {
		add("frontmatter", LevelError, dup.line, "%q is given twice (first on line %d): keep one", dup.key, dup.first)
	}
	if err := checkNameRunes(t.Name); err != nil {
		add("name", LevelError, 0, "%v", err)
	}
	if prefix, _, ok := strings.Cut(t.File, "_"); ok {
		if ft := typesx.Type(prefix); ft.Valid() && ft != t.Type {
			add("type", LevelWarning, 0, "type is %s but the file name says %s: fix the type, or rename the file to %s", t.Type, ft, FileName(t.Type, t.Name))
		}
	}
	return out
}

// firstInvalidLine is the 1-based line of the first byte that is not
// UTF-8.
func firstInvalidLine(raw []byte) int {
	line := 1
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		i += n
	}
	return line
}

type dupKey struct {
	key         string
	line, first int
}

// duplicateKeys lists the frontmatter keys given more than once, with the
// lines (in the file) of the repeat and of the first.
func duplicateKeys(raw []byte) []dupKey {
	yml, _, err := splitFrontmatter(raw)
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(yml, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	m := doc.Content[0]
	first := map[string]int{}
	var out []dupKey
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if at, ok := first[k.Value]; ok {
			out = append(out, dupKey{key: k.Value, line: k.Line + 1, first: at})
			continue
		}
		first[k.Value] = k.Line + 1
	}
	return out
}

// lintLinks reports every symlink in the memory directory that leads out
// of it: memdir never reads, writes or deletes through one. The memory
// directory itself may be a symlink; .git is not looked into.
func (d *Dir) lintLinks() ([]Finding, error) {
	top, err := filepath.EvalSymlinks(d.Path)
	if err != nil {
		return nil, err
	}
	var out []Finding
	err = filepath.WalkDir(top, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: not a link memdir could follow
		}
		if e.IsDir() && e.Name() == ".git" {
			return fs.SkipDir
		}
		if e.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		rel, _ := filepath.Rel(top, path)
		if _, err := atomicfile.StatInside(top, rel); errors.Is(err, atomicfile.ErrOutside) {
			out = append(out, Finding{Kind: "symlink", Level: LevelError, File: filepath.ToSlash(rel),
				Msg: "is a symlink that leads outside the memory directory: memdir neither reads nor writes through it; remove the link"})
		}
		return nil
	})
	return out, err
}
