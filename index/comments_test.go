package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommentsDoNotCount: 62 comment lines among 180 entries (the golden
// case comments_many, recorded from Claude Code 2.1.332): Claude loads all
// 180 with no warning, and so do Load and Measure.
func TestCommentsDoNotCount(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "claude", "comments_many", "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	v := Load(data, DefaultCaps)
	if v.Truncated || len(v.Loaded) != 180 || len(v.Dropped) != 0 || v.Warning != "" {
		t.Errorf("Load: truncated %v, %d loaded, %d dropped, warning %q", v.Truncated, len(v.Loaded), len(v.Dropped), v.Warning)
	}
	if p := Measure(data, DefaultCaps); p.OverCap || p.Lines != 180 {
		t.Errorf("Measure: %d lines, over cap %v", p.Lines, p.OverCap)
	}
}

// TestCommentsEntriesCut: with a comment stripped, the entries cut are
// those whose lines fall past the cap in the stripped text.
func TestCommentsEntriesCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("<!-- a\nmultiline note -->\n")
	for i := 1; i <= 202; i++ {
		if i == 100 {
			b.WriteString("<!-- - [Hidden](project_hidden.md) — commented out -->\n")
		}
		b.WriteString("- [T](project_t" + itoa(i) + ".md) — h\n")
	}
	v := Load([]byte(b.String()), DefaultCaps)
	if len(v.Loaded) != 200 || len(v.Dropped) != 2 {
		t.Fatalf("%d loaded, %d dropped", len(v.Loaded), len(v.Dropped))
	}
	if v.Dropped[0].File != "project_t201.md" || v.Dropped[1].File != "project_t202.md" {
		t.Errorf("dropped %v", v.Dropped)
	}
	if v.Loaded[199].File != "project_t200.md" {
		t.Errorf("last loaded %v", v.Loaded[199])
	}
}

func itoa(i int) string {
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

func FuzzStripComments(f *testing.F) {
	for _, s := range []string{"<!-- a -->\n\nx\n", "a\r\n<!-- b\r\n-->\r\nc", "<!-- never", "```\n<!-- c -->\n```\n", "<!--> x\n<!---> y\n", "- a\n<!-- b --> c\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, origin := stripComments(s)
		if origin == nil {
			if out != s {
				t.Fatalf("nothing stripped, yet the text changed")
			}
			return
		}
		if strings.Contains(out, "\r") && !strings.Contains(s, "\r") {
			t.Fatalf("a carriage return appeared")
		}
		if len(origin) != countSplit(out) {
			t.Fatalf("%d origins for %d lines", len(origin), countSplit(out))
		}
		lines := countSplit(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"))
		for i, o := range origin {
			if o < 0 || o >= lines || i > 0 && o < origin[i-1] {
				t.Fatalf("origin %v out of order or range (%d lines)", origin, lines)
			}
		}
		if len(out) >= len(s)+1 {
			t.Fatalf("stripping made the text longer")
		}
	})
}
