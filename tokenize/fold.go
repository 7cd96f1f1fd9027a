package tokenize

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// appendFolded appends r lowercased and without its diacritics: Müller
// folds to muller, Ærø to aero, straße to strasse. Combining marks
// (decomposed input) are dropped. A Latin letter with marks (U+00C0 to
// U+024F, U+1E00 to U+1EFF) folds to the letter its canonical
// decomposition (norm.NFD) starts with; the letters NFD leaves whole are
// spelled out below. Other scripts keep their marks (й is not и).
func appendFolded(dst []byte, r rune) []byte {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(dst, byte(r))
	case r >= 0x300 && r <= 0x36F:
		return dst
	}
	if s := whole(r); s != "" {
		return append(dst, s...)
	}
	if r >= 0xC0 && r <= 0x24F || r >= 0x1E00 && r <= 0x1EFF {
		var buf [utf8.UTFMax]byte
		d := norm.NFD.Properties(utf8.AppendRune(buf[:0], r)).Decomposition()
		if len(d) > 0 && d[0] < utf8.RuneSelf && unicode.IsLetter(rune(d[0])) {
			return append(dst, byte(unicode.ToLower(rune(d[0]))))
		}
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}

// whole spells the Latin letters NFD does not decompose into a plain
// letter and a mark: ligatures, letters whose stroke or hook is part of
// the letter (ø, ł, đ, ŋ), the dotless i and the long s.
func whole(r rune) string {
	switch r {
	case 'Æ', 'æ':
		return "ae"
	case 'Œ', 'œ':
		return "oe"
	case 'ß', 'ẞ':
		return "ss"
	case 'Þ', 'þ':
		return "th"
	case 'Ĳ', 'ĳ':
		return "ij"
	case 'Ð', 'ð', 'Đ', 'đ':
		return "d"
	case 'Ø', 'ø':
		return "o"
	case 'Ħ', 'ħ':
		return "h"
	case 'ı':
		return "i"
	case 'ĸ':
		return "k"
	case 'Ŀ', 'ŀ', 'Ł', 'ł':
		return "l"
	case 'ŉ', 'Ŋ', 'ŋ':
		return "n"
	case 'Ŧ', 'ŧ':
		return "t"
	case 'ſ':
		return "s"
	}
	return ""
}
