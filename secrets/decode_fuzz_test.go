package secrets

import (
	"encoding/base64"
	"sort"
	"testing"
	"unicode/utf8"
)

// FuzzBase64Rescan checks the base64 decoder against encoding/base64: a
// text that is encoded and set in a sentence decodes back to itself when
// it is text, and a credential in it is still found.
func FuzzBase64Rescan(f *testing.F) {
	addSeeds(f, []string{"ghp_" + rnd(36, 90), "hello world, this is fine", "password=hunter22"})
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4<<10 {
			t.Skip()
		}
		enc := base64.StdEncoding.EncodeToString([]byte(text))
		got, ok := decodeText(enc, "")
		if ok && got != text {
			t.Fatalf("decodeText(%q) = %q, want %q", enc, got, text)
		}
		if !ok || len(enc) < minEncodedRun {
			return
		}
		inner := scanAll(text, 1)
		outer := scanAll("note: "+enc+" end", 0)
		if len(inner) > 0 && len(outer) == 0 {
			t.Fatalf("%q holds a credential, its base64 %q gave nothing", text, enc)
		}
	})
}

// FuzzStripInvisible checks the zero-width stripping against a plain loop
// over the runes, and that what is found in the stripped text is found in
// the text.
func FuzzStripInvisible(f *testing.F) {
	addSeeds(f, []string{"ghp_" + rnd(18, 91) + "\u200b" + rnd(18, 92), "pass\u00adword=hunter22", "a\u200db\xffc\ufeff"})
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4<<10 {
			t.Skip()
		}
		var want []byte
		found := false
		for i := 0; i < len(text); {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r != utf8.RuneError && invisible(r) {
				found = true
			} else {
				want = append(want, text[i:i+size]...)
			}
			i += size
		}
		stripped, offsets, ok := stripInvisible(text)
		if ok != found {
			t.Fatalf("stripInvisible(%q) ok = %v, want %v", text, ok, found)
		}
		if !ok {
			return
		}
		if stripped != string(want) || len(offsets) != len(stripped) {
			t.Fatalf("stripInvisible(%q) = %q (%d offsets), want %q", text, stripped, len(offsets), want)
		}
		for i := range offsets {
			if text[offsets[i]] != stripped[i] || (i > 0 && offsets[i] <= offsets[i-1]) {
				t.Fatalf("offset %d = %d does not map %q", i, offsets[i], stripped)
			}
		}
		all := scanAll(text, 0)
		for _, m := range scanAll(stripped, 0) {
			s, e := offsets[m.start], offsets[m.end-1]+1
			i := sort.Search(len(all), func(i int) bool { return all[i].end > s })
			if i == len(all) || all[i].start >= e {
				t.Fatalf("%q found in the stripped text, not in %q", stripped[m.start:m.end], text)
			}
		}
	})
}
