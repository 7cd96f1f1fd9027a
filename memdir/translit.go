package memdir

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// transliterate spells a name in ASCII for its file name, as a person
// would type it: accents dropped ("Müller" -> "Muller"), the Latin letters
// that do not decompose spelled out (ß -> ss, æ -> ae, ø -> o), Greek and
// Cyrillic letter by letter, Japanese kana in Hepburn romaji, Korean
// Hangul by the Revised Romanization. What it cannot spell (Han
// characters, say) is left as it is, for Slugify to drop.
func transliterate(s string) string {
	var b strings.Builder
	runes := []rune(norm.NFC.String(s))
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case isKana(r):
			i += writeKana(&b, runes, i) - 1
		case r >= 0xAC00 && r <= 0xD7A3:
			writeHangul(&b, r)
		default:
			writeLetter(&b, r)
		}
	}
	return b.String()
}

// writeLetter writes a letter without its accents ("ü" -> "u"), or as
// latinExtra or greekCyrillic spell it, or as it is.
func writeLetter(b *strings.Builder, r rune) {
	lr := unicode.ToLower(r)
	if t, ok := latinExtra()[lr]; ok {
		b.WriteString(t)
		return
	}
	for _, d := range norm.NFD.String(string(lr)) {
		if unicode.Is(unicode.Mn, d) {
			continue
		}
		if t, ok := greekCyrillic()[d]; ok {
			b.WriteString(t)
		} else {
			b.WriteRune(d)
		}
	}
}

// latinExtra spells the Latin letters that do not decompose into a base
// letter and an accent.
var latinExtra = sync.OnceValue(func() map[rune]string {
	return map[rune]string{
		'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d", 'ð': "d", 'þ': "th",
		'ł': "l", 'ı': "i", 'ħ': "h", 'ŋ': "ng", 'ĸ': "k", 'ſ': "s",
	}
})

// greekCyrillic spells Greek and Cyrillic letters (lowercase; the name is
// lowercased for its slug anyway).
var greekCyrillic = sync.OnceValue(func() map[rune]string {
	return map[rune]string{
		'α': "a", 'β': "v", 'γ': "g", 'δ': "d", 'ε': "e", 'ζ': "z", 'η': "i", 'θ': "th",
		'ι': "i", 'κ': "k", 'λ': "l", 'μ': "m", 'ν': "n", 'ξ': "x", 'ο': "o", 'π': "p",
		'ρ': "r", 'σ': "s", 'ς': "s", 'τ': "t", 'υ': "y", 'φ': "f", 'χ': "ch", 'ψ': "ps", 'ω': "o",
		'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "yo", 'ж': "zh",
		'з': "z", 'и': "i", 'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o",
		'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts",
		'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu",
		'я': "ya", 'є': "ye", 'і': "i", 'ї': "yi", 'ґ': "g", 'ў': "u",
	}
})

func isKana(r rune) bool { return r >= 0x3041 && r <= 0x30FC }

// kana spells the basic kana (hiragana; katakana maps onto it).
var kana = sync.OnceValue(func() map[rune]string {
	return map[rune]string{
		'あ': "a", 'い': "i", 'う': "u", 'え': "e", 'お': "o",
		'か': "ka", 'き': "ki", 'く': "ku", 'け': "ke", 'こ': "ko",
		'が': "ga", 'ぎ': "gi", 'ぐ': "gu", 'げ': "ge", 'ご': "go",
		'さ': "sa", 'し': "shi", 'す': "su", 'せ': "se", 'そ': "so",
		'ざ': "za", 'じ': "ji", 'ず': "zu", 'ぜ': "ze", 'ぞ': "zo",
		'た': "ta", 'ち': "chi", 'つ': "tsu", 'て': "te", 'と': "to",
		'だ': "da", 'ぢ': "ji", 'づ': "zu", 'で': "de", 'ど': "do",
		'な': "na", 'に': "ni", 'ぬ': "nu", 'ね': "ne", 'の': "no",
		'は': "ha", 'ひ': "hi", 'ふ': "fu", 'へ': "he", 'ほ': "ho",
		'ば': "ba", 'び': "bi", 'ぶ': "bu", 'べ': "be", 'ぼ': "bo",
		'ぱ': "pa", 'ぴ': "pi", 'ぷ': "pu", 'ぺ': "pe", 'ぽ': "po",
		'ま': "ma", 'み': "mi", 'む': "mu", 'め': "me", 'も': "mo",
		'や': "ya", 'ゆ': "yu", 'よ': "yo",
		'ら': "ra", 'り': "ri", 'る': "ru", 'れ': "re", 'ろ': "ro",
		'わ': "wa", 'ゐ': "i", 'ゑ': "e", 'を': "o", 'ん': "n", 'ゔ': "vu",
		'ぁ': "a", 'ぃ': "i", 'ぅ': "u", 'ぇ': "e", 'ぉ': "o",
	}
})

// writeKana writes the kana at runes[i] (with a small ya/yu/yo after it,
// or the small tsu before a consonant) and returns how many runes it
// read. NFD has split voiced kana into a base and a combining mark: they
// are put back together first.
func writeKana(b *strings.Builder, runes []rune, i int) int {
	at := func(k int) (rune, int) {
		if k >= len(runes) || !isKana(runes[k]) {
			return 0, 0
		}
		r := runes[k]
		if r >= 0x30A1 && r <= 0x30F6 {
			r -= 0x60 // katakana to hiragana
		}
		n := 1
		if k+1 < len(runes) && (runes[k+1] == 0x3099 || runes[k+1] == 0x309A) {
			r = []rune(norm.NFC.String(string([]rune{r, runes[k+1]})))[0]
			n = 2
		}
		return r, n
	}
	r, n := at(i)
	switch r {
	case 'っ':
		if next, _ := at(i + n); kana()[next] != "" {
			b.WriteByte(kana()[next][0])
		}
		return n
	case 0x30FC - 0x60, 0x30FC: // the long-vowel mark
		return n
	}
	s, ok := kana()[r]
	if !ok {
		b.WriteRune(r)
		return n
	}
	if small, m := at(i + n); small == 'ゃ' || small == 'ゅ' || small == 'ょ' {
		y := map[rune]string{'ゃ': "a", 'ゅ': "u", 'ょ': "o"}[small]
		switch {
		case strings.HasSuffix(s, "hi"), s == "ji", s == "chi":
			s = s[:len(s)-1] + y
		default:
			s = s[:len(s)-1] + "y" + y
		}
		n += m
	}
	b.WriteString(s)
	return n
}

// Hangul jamo spelled by the Revised Romanization (initial, vowel,
// final).
var (
	hangulInitial = []string{"g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"}
	hangulVowel   = []string{"a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i"}
	hangulFinal   = []string{"", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"}
)

func writeHangul(b *strings.Builder, r rune) {
	n := int(r - 0xAC00)
	b.WriteString(hangulInitial[n/588] + hangulVowel[n%588/28] + hangulFinal[n%28])
}
