package index

import (
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
)

// FuzzMeasureIndex checks that MeasureIndex, which trusts the parsed
// index an add has just changed, reports what Measure reports after
// parsing the rendered bytes again.
func FuzzMeasureIndex(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "user_fuzz.md")
	}
	f.Add([]byte("- [A](user_a.md)\n- [B](project_b.md)\n- [C](feedback_c.md)\n- [D](reference_d.md)\n"), "project_new.md")
	f.Fuzz(func(t *testing.T, data []byte, file string) {
		ix := Parse(data)
		e := Entry{Title: "Fuzz topic", File: file, Hook: "a hook"}
		if got, ok := parseEntry(FormatEntry(e)); ok && got == e {
			// Only names an entry line can carry, as the store's are.
			ix.Upsert(e)
		}
		out := ix.Bytes()
		for _, caps := range []Caps{DefaultCaps, {Lines: 3, Bytes: 40}, {Lines: 1, Bytes: 10}} {
			want := Measure(out, caps)
			got := MeasureIndex(ix, out, caps)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("MeasureIndex differs from Measure (-want +got):\n%s\nin:  %q\nout: %q", diff, data, out)
			}
		}
	})
}

func TestMeasureIndexNamesInvisible(t *testing.T) {
	metas := testMetas(205, 20)
	ix := Parse(indexOf(metas))
	ix.Upsert(Entry{Title: "New", File: "project_new.md", Hook: "h"})
	p := MeasureIndex(ix, ix.Bytes(), DefaultCaps)
	if !p.OverCap || len(p.Invisible) != 6 {
		t.Fatalf("OverCap = %v with %d invisible, want true with 6", p.OverCap, len(p.Invisible))
	}
	if diff := cmp.Diff(Measure(ix.Bytes(), DefaultCaps), p); diff != "" {
		t.Errorf("MeasureIndex differs from Measure (-want +got):\n%s", diff)
	}
}

// FuzzUTF16Len checks the eight-bytes-at-a-time count against Go's own
// UTF-16 encoding of the runes (an invalid byte is one U+FFFD).
func FuzzUTF16Len(f *testing.F) {
	for _, s := range []string{"", "plain ascii text, longer than eight", "Zürich 🙂 naïve\xff\xfe tail of ascii", "12345678\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := utf16Len(s), len(utf16.Encode([]rune(s))); got != want {
			t.Errorf("utf16Len(%q) = %d, want %d", s, got, want)
		}
	})
}
