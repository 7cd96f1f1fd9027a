package index

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cutNote is the part of Claude Code's warning after "Only part of it was
// loaded: ". When the cut fell at a line's end it counts the lines cut and
// quotes the first of them, trimmed, shortened by excerpt (none when it is
// blank); a cut inside the first line says where in that line.
func (m measured) cutNote() string {
	if m.half || len(m.kept) >= len(m.text) || m.text[len(m.kept)] != '\n' {
		units := utf16Len(m.kept)
		if m.half {
			units++
		}
		return "everything after the first " + strconv.Itoa(units) + " characters of line 1 was cut off"
	}
	kept := strings.Count(m.kept, "\n") + 1
	next := m.text[len(m.kept)+1:]
	if i := strings.IndexByte(next, '\n'); i >= 0 {
		next = next[:i]
	}
	note := strconv.Itoa(m.lines-kept) + " of " + strconv.Itoa(m.lines) + " lines were cut off, starting at line " + strconv.Itoa(kept+1)
	if line := TrimJS(next); line != "" {
		note += ` ("` + excerpt(line, 80) + `")`
	}
	return note
}

// excerpt shortens s to at most n UTF-16 code units as Claude Code's
// excerpt helper does: s itself when it fits; else its first n-1 units (a
// pair never split), cut back to the last white space when what remains is
// longer than n/2 units, with trailing white space trimmed, and "…".
func excerpt(s string, n int) string {
	if utf16Len(s) <= n {
		return s
	}
	head, units := s, 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n-1 {
			head = s[:i]
			break
		}
		units += w
	}
	out := strings.TrimRightFunc(head, isJSSpace)
	if r := strings.LastIndexFunc(head, isJSSpace); r >= 0 {
		if word := strings.TrimRightFunc(head[:r], isJSSpace); utf16Len(word)*2 > n {
			out = word
		}
	}
	return out + "…"
}

// Scrub makes text what Claude Code sends of a memory index: "\r\n", a
// lone "\r" and the line and paragraph separators become "\n"; control
// characters other than tab and newline, format characters (but the
// zero-width joiner and non-joiner and the text and emoji variation
// selectors), private use, unassigned code points, lone surrogates and the
// other default-ignorable code points are dropped; a byte that is not UTF-8
// becomes U+FFFD, as the client decodes it. Unassigned means unassigned in
// Go's Unicode tables, which may be a version behind the client's.
func Scrub(s string) string {
	i := kept(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		// Copy what stays in runs: an index is mostly text Scrub keeps,
		// and writing it rune by rune was most of loading it.
		b.WriteString(s[:i])
		s = s[i:]
		if s == "" {
			return b.String()
		}
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch {
		case r == '\r':
			b.WriteByte('\n')
			s = strings.TrimPrefix(s, "\n")
		case r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
		case dropped(r):
		default:
			b.WriteRune(r) // a byte that is not UTF-8: U+FFFD
		}
		i = kept(s)
	}
}

// kept is the length of the start of s that Scrub leaves as it is.
func kept(s string) int {
	var same rune // the last character found kept: an index repeats its few
	for i := 0; i < len(s); {
		if i+8 <= len(s) && printable8(s[i:i+8]) {
			i += 8
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != same || r == utf8.RuneError { // a real U+FFFD must not vouch for a bad byte
			if r == utf8.RuneError && size == 1 || r == 0x2028 || r == 0x2029 || dropped(r) {
				return i
			}
			same = r
		}
		i += size
	}
	return len(s)
}

// printable8 reports whether the eight bytes of s are all printable ASCII
// (0x20 to 0x7e), eight at a time: an index is mostly that, and looking
// at it a byte at a time was half of loading it.
func printable8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	// With every high bit clear, adding 0x60 sets it exactly in the bytes
	// from 0x20 on, and adding 1 exactly in 0x7f; no byte carries over.
	return w&highs == 0 && (w+0x60*ones)&highs == highs && (w+ones)&highs == 0
}

// dropped reports whether Scrub drops r: the class
// [\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{DI}]
// without U+200C, U+200D, U+FE0E and U+FE0F.
func dropped(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case r < 0xa0:
		return false
	case r == 0x200c || r == 0x200d || r == 0xfe0e || r == 0xfe0f:
		return false
	case r == utf8.RuneError:
		return false // a byte that is not UTF-8: the client reads U+FFFD
	}
	return unicode.In(r, unicode.Cf, unicode.Co, unicode.Cs, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) ||
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc)
}
