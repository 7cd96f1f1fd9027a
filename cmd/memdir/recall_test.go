package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/memdir/memdir/index"
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
