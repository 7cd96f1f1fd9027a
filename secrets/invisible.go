package secrets

import (
	"unicode"
	"unicode/utf8"
)

// invisible reports whether r is a character that shows nothing and so can
// split a token without a reader seeing it: format characters (zero-width
// space, joiners, word joiner, soft hyphen, byte order mark, direction
// marks and overrides, tag characters), variation selectors and the
// Hangul fillers.
func invisible(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Variation_Selector, r):
		return true
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0:
		return true
	}
	return false
}

// stripInvisible returns text without its invisible characters and, for
// each byte of the result, its offset in text; ok is false when text has
// none, and nothing is allocated then.
func stripInvisible(text string) (stripped string, offsets []int, ok bool) {
	first := -1
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if invisible(r) {
			first = i
			break
		}
		i += size
	}
	if first < 0 {
		return "", nil, false
	}
	b := make([]byte, first, len(text))
	copy(b, text[:first])
	offsets = make([]int, first, len(text))
	for i := range first {
		offsets[i] = i
	}
	for i := first; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !invisible(r) {
			for k := range size {
				b = append(b, text[i+k])
				offsets = append(offsets, i+k)
			}
		}
		i += size
	}
	return string(b), offsets, true
}
