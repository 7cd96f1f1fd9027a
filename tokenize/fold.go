package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// Diacritic folding. golang.org/x/text/unicode/norm would decompose every
// rune, but it is not among memdir's dependencies and matching needs only
// Latin letters with marks: these two tables were generated once from
// norm.NFD (U+00C0-U+024F and U+1E00-U+1EFF: the letter each rune carries,
// lowercased, or a space when it carries none), then the letters NFD leaves
// whole (ð, ø, ł, đ, ħ, ı, ŧ, ŋ, ſ) were filled in by hand. Constant
// strings cost nothing at process start.
const (
	latinBase = 0xC0
	latinFold = "aaaaaa ceeeeiiiidnooooo ouuuuy  aaaaaa ceeeeiiiidnooooo ouuuuy yaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii  jjkkkllllllllllnnnnnn nnoooooo  rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs                                oo             uu                            aaiioouuuuuuuuuu aaaa    ggkkoooo  j   gg  nnaa    aaaaeeeeiiiioooorrrruuuusstt  hh      aaeeooooooooyy                            "
	extBase   = 0x1E00
	extFold   = "aabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwy      aaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy      "
)

// appendFolded appends r lowercased and without its diacritics: Müller
// folds to muller, Ærø to aero, straße to strasse. Combining marks
// (decomposed input) are dropped.
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
	switch r {
	case 'Æ', 'æ':
		return append(dst, "ae"...)
	case 'Œ', 'œ':
		return append(dst, "oe"...)
	case 'ß', 'ẞ':
		return append(dst, "ss"...)
	case 'Þ', 'þ':
		return append(dst, "th"...)
	case 'Ĳ', 'ĳ':
		return append(dst, "ij"...)
	case 'ŉ':
		return append(dst, 'n')
	}
	if i := r - latinBase; i >= 0 && int(i) < len(latinFold) && latinFold[i] != ' ' {
		return append(dst, latinFold[i])
	}
	if i := r - extBase; i >= 0 && int(i) < len(extFold) && extFold[i] != ' ' {
		return append(dst, extFold[i])
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}
