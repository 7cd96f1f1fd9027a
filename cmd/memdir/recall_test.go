package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

// TestLoadablePartLoadsAsTheWholeFile: recall's cut of MEMORY.md loads
// the same entries as the whole file, also when frontmatter and comment
// blocks (which the caps do not count) come first.
func TestLoadablePartLoadsAsTheWholeFile(t *testing.T) {
	var entries strings.Builder
	for i := range 300 {
		fmt.Fprintf(&entries, "- [Topic %d](user_topic_%d.md) — hook %d\n", i, i, i)
	}
	comment := "<!--\n" + strings.Repeat("a note for people\n", 150) + "-->\n"
	for name, data := range map[string]string{
		"plain":       entries.String(),
		"comment":     comment + entries.String(),
		"frontmatter": "---\ntitle: memory\n---\n" + entries.String(),
	} {
		caps := index.DefaultCaps
		want := index.Load([]byte(data), caps).Loaded
		part, _ := loadablePart([]byte(data), caps)
		if got := index.Load(part, caps).Loaded; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the cut loads %d entries, the whole file %d", name, len(got), len(want))
		}
	}
}

// TestReadLoadableLoadsAsTheWholeFile: what recall reads of MEMORY.md
// (the first 64 KiB when they hold every loadable line, else the whole
// file) loads the same entries as the whole file, when a comment block
// or long lines push the entries past 64 KiB.
func TestReadLoadableLoadsAsTheWholeFile(t *testing.T) {
	var entries, long strings.Builder
	for i := range 300 {
		fmt.Fprintf(&entries, "- [Topic %d](user_topic_%d.md) — hook %d\n", i, i, i)
		fmt.Fprintf(&long, "- [Topic %d](user_topic_%d.md) — %s\n", i, i, strings.Repeat("long hook ", 40))
	}
	for name, data := range map[string]string{
		"short":       entries.String(),
		"big comment": "<!--\n" + strings.Repeat("x", 70<<10) + "\n-->\n" + entries.String(),
		"long lines":  long.String(),
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, memdir.IndexFile), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		caps := index.DefaultCaps
		part, err := readLoadable(dir, caps)
		if err != nil {
			t.Fatal(err)
		}
		want := index.Load([]byte(data), caps).Loaded
		if got := index.Load(part, caps).Loaded; len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: what recall read loads %d entries, the whole file %d", name, len(got), len(want))
		}
	}
}
