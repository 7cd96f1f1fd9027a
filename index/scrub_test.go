package index

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// scrubRunes is Scrub written the plain way, rune by rune: the oracle for
// Scrub, which copies what it keeps in runs.
func scrubRunes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
		case dropped(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestScrub(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"- [A](a.md) — hook\n", "- [A](a.md) — hook\n"},
		{"a\r\nb\rc", "a\nb\nc"},
		{"x\u2028y\u2029z", "x\ny\nz"},
		{"zero\u200bwidth\u00adsoft\x01ctl\x7fdel\u0085nel", "zerowidthsoftctldelnel"},
		{"joiner\u200dkept\ufe0f", "joiner\u200dkept\ufe0f"},
		{"bad\xffbyte", "bad\ufffdbyte"},
		{"\ufffd\xff", "\ufffd\ufffd"}, // a real U+FFFD vouches for no bad byte
		{"x \ufffd y \xfe z", "x \ufffd y \ufffd z"},
		{"\r", "\n"},
		{"ends\r\n", "ends\n"},
	} {
		if got := Scrub(tc.in); got != tc.want {
			t.Errorf("Scrub(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzScrub(f *testing.F) {
	for _, s := range []string{"", "plain\n", "a — b\r\nc", "\xff\xfe", "x\u200by", "\u2028\u2029\r\r\n", "emoji 😀\ufe0f\u200d", "\ufffd\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Scrub(s), scrubRunes(s); got != want {
			t.Fatalf("Scrub(%q) = %q, want %q", s, got, want)
		}
	})
}

func TestPrintable8(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c >= 0x20 && c <= 0x7e
		for at := 0; at < 8; at++ {
			b := []byte("abcdefgh")
			b[at] = byte(c)
			if got := printable8(string(b)); got != want {
				t.Errorf("printable8 with %#x at %d = %v, want %v", c, at, got, want)
			}
		}
	}
}
