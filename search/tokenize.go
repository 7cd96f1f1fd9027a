package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// maxWordBytes is the longest word indexed; longer runs (hashes, base64)
// are skipped, though they still take a position so phrases stay exact.
const maxWordBytes = 64

// word is one token of a text: its folded form (lowercase, no
// diacritics), the term the index keeps for it (the English stem of the
// folded form, or the folded form itself) and its position. A compound
// (api-latency, MAX_RETRIES, getUserName) gives its parts at consecutive
// positions and, at the first part's position, the whole joined
// (apilatency) with whole set.
type word struct {
	folded     string
	term       string
	pos        int
	whole      bool
	start, end int // byte range in the text (the whole compound for a whole)
}

// tokenizer splits text into words. It caches stems, so one tokenizer
// serves a whole index build; it is not safe for concurrent use.
type tokenizer struct {
	stems map[string]string
	parts []part
	buf   []byte
	whole []byte
}

// part is a piece of a compound: a byte range of the text.
type part struct{ start, end int }

func newTokenizer() *tokenizer { return &tokenizer{stems: map[string]string{}} }

// each calls fn for every word of text, positions counting from pos. It
// returns the next free position.
func (tk *tokenizer) each(text string, pos int, fn func(word)) int {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isIdeograph(r):
			tk.parts = append(tk.parts[:0], part{i, i + size})
			pos = tk.emit(text, pos, fn)
			i += size
		case isWordRune(r):
			end := tk.chunk(text, i)
			pos = tk.emit(text, pos, fn)
			i = end
		default:
			i += size
		}
	}
	return pos
}

// chunk reads the compound starting at i into tk.parts and returns where
// it ends. Parts are joined by one connector between word runes (- _ . /
// @) or by a change of case (camelCase, HTTPServer); an apostrophe
// between letters stays inside its part (don't, team's).
func (tk *tokenizer) chunk(text string, i int) int {
	tk.parts = tk.parts[:0]
	start := i
	var prev rune
loop:
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r) && !isIdeograph(r):
			if camelBreak(prev, r, text[i+size:]) && i > start {
				tk.parts = append(tk.parts, part{start, i})
				start = i
			}
			prev = r
			i += size
			continue
		case isConnector(r) || r == '\'' || r == '’':
			next, nsize := utf8.DecodeRuneInString(text[i+size:])
			if prev != 0 && isWordRune(next) && !isIdeograph(next) {
				if r == '\'' || r == '’' {
					prev = next
					i += size + nsize
					continue
				}
				tk.parts = append(tk.parts, part{start, i})
				start = i + size
				prev = 0
				i += size
				continue
			}
		}
		break loop
	}
	tk.parts = append(tk.parts, part{start, i})
	return i
}

// camelBreak reports whether a new part starts at r: lower then upper
// (getUser), or the last upper of a run before a lower (HTTPServer).
func camelBreak(prev, r rune, rest string) bool {
	if prev == 0 || !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) {
		return true
	}
	if unicode.IsUpper(prev) {
		next, _ := utf8.DecodeRuneInString(rest)
		return unicode.IsLower(next)
	}
	return false
}

// emit folds and stems the parts of one compound and calls fn for each,
// then for the whole when there are several parts.
func (tk *tokenizer) emit(text string, pos int, fn func(word)) int {
	first := pos
	whole := tk.whole[:0]
	for _, p := range tk.parts {
		folded := fold(text[p.start:p.end], &tk.buf)
		if folded != "" && len(folded) <= maxWordBytes {
			fn(word{folded: folded, term: tk.stem(folded), pos: pos, start: p.start, end: p.end})
			whole = append(whole, folded...)
		}
		pos++
	}
	if len(tk.parts) > 1 && len(whole) > 0 && len(whole) <= maxWordBytes {
		w := string(whole)
		fn(word{folded: w, term: w, pos: first, whole: true, start: tk.parts[0].start, end: tk.parts[len(tk.parts)-1].end})
	}
	tk.whole = whole
	return pos
}

// fold returns s lowercased and without diacritics or apostrophes at its
// ends, using buf as scratch space.
func fold(s string, buf *[]byte) string {
	b := (*buf)[:0]
	for _, r := range s {
		if r == '’' {
			r = '\''
		}
		b = appendFolded(b, r)
	}
	*buf = b
	for len(b) > 0 && b[len(b)-1] == '\'' {
		b = b[:len(b)-1]
	}
	return string(b)
}

// stem returns the index term of a folded word: the English stem of a
// word of plain letters longer than two, else the word.
func (tk *tokenizer) stem(w string) string {
	if s, ok := tk.stems[w]; ok {
		return s
	}
	s := w
	if len(w) > 2 && plainLetters(w) {
		s = english.Stem(w, false)
	}
	tk.stems[w] = s
	return s
}

func plainLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && c != '\'' {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isConnector(r rune) bool {
	switch r {
	case '-', '_', '.', '/', '@':
		return true
	}
	return false
}

// isIdeograph reports runes of scripts written without spaces: each is a
// word of its own, so phrases of them still match.
func isIdeograph(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}
