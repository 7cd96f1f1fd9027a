package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
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

// FuzzDecode checks the decoder against encoders written independently
// of it (fmt and a rune offset): a text with no disguise of its own (and
// no NUL, which no escape stands for),
// written %-escaped, \u-escaped, as HTML references, fullwidth, with
// zero-width spaces between its characters or in hex, decodes back to
// itself; every byte of a view maps inside the text, in order; and a
// credential found in the text is found in its disguise.
func FuzzDecode(f *testing.F) {
	for i, s := range []string{"ghp_" + rnd(36, 91), "pass\u00adword=hunter22", "a\u200db\xffc\ufeff", "xoxb-123456789012-1234567890123-" + rnd(24, 92)} {
		f.Add(s, byte(i))
	}
	f.Fuzz(func(t *testing.T, text string, how byte) {
		if len(text) > 1<<10 {
			t.Skip()
		}
		checkView(t, text)
		if _, ok := decode(text); ok || text == "" || !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
			return
		}
		enc, ok := disguiseAs(text, how)
		if !ok {
			return
		}
		checkView(t, enc)
		v, ok := decode(enc)
		if !ok || v.text != text {
			t.Fatalf("decode(%q) = %q, %v; want %q", enc, v.text, ok, text)
		}
		if len(scanAll(text, 0)) > 0 && len(scanAll(enc, 0)) == 0 {
			t.Fatalf("%q holds a credential, its disguise %q gave nothing", text, enc)
		}
	})
}

// disguiseAs writes text in one of six disguises.
func disguiseAs(text string, how byte) (string, bool) {
	var b strings.Builder
	switch how % 6 {
	case 0:
		for i := 0; i < len(text); i++ {
			fmt.Fprintf(&b, "%%%02x", text[i])
		}
	case 1:
		for _, r := range text {
			fmt.Fprintf(&b, "\\u{%x}", r)
		}
	case 2:
		for _, r := range text {
			fmt.Fprintf(&b, "&#%d;", r)
		}
	case 3:
		for _, r := range text {
			if r < 0x21 || r > 0x7e {
				return "", false
			}
			b.WriteRune(r + 0xFEE0)
		}
	case 4:
		for _, r := range text {
			b.WriteString(string(r) + "\u200b")
		}
	case 5:
		if len(text) < minHexRun/2 {
			return "", false
		}
		for i := 0; i < len(text); i++ {
			if c := text[i]; c < 0x20 || c > 0x7e {
				return "", false
			}
		}
		return hex.EncodeToString([]byte(text)), true
	}
	return b.String(), true
}

// checkView checks that every byte of the decoded and the join views of
// text maps to a span inside text, in order.
func checkView(t *testing.T, text string) {
	t.Helper()
	v, ok := decode(text)
	if !ok {
		v = view{text: text}
	}
	views := []view{v}
	if jv, ok := join(v.text); ok {
		views = append(views, jv)
	}
	for n, w := range views {
		if len(w.from) != len(w.text) || len(w.to) != len(w.text) {
			if n == 0 && !ok {
				continue
			}
			t.Fatalf("view %d of %q: %d bytes, %d and %d offsets", n, text, len(w.text), len(w.from), len(w.to))
		}
		for k := range w.from {
			if w.from[k] < 0 || w.from[k] >= w.to[k] || (k > 0 && w.from[k] < w.from[k-1]) {
				t.Fatalf("view %d of %q: byte %d maps to [%d,%d)", n, text, k, w.from[k], w.to[k])
			}
		}
	}
}
