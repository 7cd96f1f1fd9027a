// Package tokenize is memdir's one tokenizer and stemmer: how text becomes
// words and words become terms, for search (its index and its queries)
// and for similarity (memdir's duplicate check and dream's merging).
//
// A text is cut into words that fold case and diacritics (Müller,
// muller), English words of plain letters are stemmed with the Snowball
// stemmer (configuring, configuration: configur), and identifiers give
// both their parts and their whole (api-latency: api, latency and
// apilatency; MAX_RETRIES; getUserName). Scripts written without spaces
// (Han, Hiragana, Katakana) give a word per character.
//
// It owns the word lists too (stop.go): English stop words, negations and
// the words a question is asked with. What a listed word is worth stays
// the caller's policy: search does not require any of them in a plain
// query; the similarity of two memories drops stop words and counts
// every negation as one term.
//
// Its package initialisation is empty (no maps, regexps or tables built
// at start): every memdir command links it, and most never tokenize.
package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// MaxWordBytes is the longest word given; longer runs (hashes, base64)
// are skipped, though they still take a position so phrases stay exact.
const MaxWordBytes = 64

// Word is one token of a text: its folded form (lowercase, no
// diacritics), its term (the English stem of the folded form, or the
// folded form itself) and its position. A compound (api-latency,
// MAX_RETRIES, getUserName) gives its parts at consecutive positions and,
// at the first part's position, the whole joined (apilatency) with Whole
// set.
type Word struct {
	Folded     string
	Term       string
	Pos        int
	Whole      bool
	Start, End int // byte range in the text (the whole compound for a whole)
}

// Tokenizer splits text into words. It caches stems, so one tokenizer
// serves a whole index build; it is not safe for concurrent use.
type Tokenizer struct {
	stems map[string]string
	parts []part
	buf   []byte
	whole []byte
}

// part is a piece of a compound: a byte range of the text.
type part struct{ start, end int }

// New returns a Tokenizer with a stem cache of its own, which grows with
// the vocabulary it meets: for one index build.
func New() *Tokenizer { return &Tokenizer{stems: map[string]string{}} }

// NewShared returns a Tokenizer whose stems go through Stem's cache,
// shared and bounded: for a long-running process that tokenizes many
// small texts.
func NewShared() *Tokenizer { return &Tokenizer{} }

// Each calls fn for every word of text, positions counting from pos. It
// returns the next free position.
func (tk *Tokenizer) Each(text string, pos int, fn func(Word)) int {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isIdeograph(r):
			tk.parts = append(tk.parts[:0], part{i, i + size})
			pos = tk.emit(text, pos, fn)
			i += size
		case IsWordRune(r):
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
func (tk *Tokenizer) chunk(text string, i int) int {
	tk.parts = tk.parts[:0]
	start := i
	var prev rune
loop:
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case IsWordRune(r) && !isIdeograph(r):
			if camelBreak(prev, r, text[i+size:]) && i > start {
				tk.parts = append(tk.parts, part{start, i})
				start = i
			}
			prev = r
			i += size
			continue
		case isConnector(r) || r == '\'' || r == '’':
			next, nsize := utf8.DecodeRuneInString(text[i+size:])
			if prev != 0 && IsWordRune(next) && !isIdeograph(next) {
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
func (tk *Tokenizer) emit(text string, pos int, fn func(Word)) int {
	first := pos
	whole := tk.whole[:0]
	for _, p := range tk.parts {
		folded := fold(text[p.start:p.end], &tk.buf)
		if folded != "" && len(folded) <= MaxWordBytes {
			fn(Word{Folded: folded, Term: tk.stem(folded), Pos: pos, Start: p.start, End: p.end})
			whole = append(whole, folded...)
		}
		pos++
	}
	if len(tk.parts) > 1 && len(whole) > 0 && len(whole) <= MaxWordBytes {
		w := string(whole)
		fn(Word{Folded: w, Term: w, Pos: first, Whole: true, Start: tk.parts[0].start, End: tk.parts[len(tk.parts)-1].end})
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

// stem is Stem, with the tokenizer's own cache, if it has one.
func (tk *Tokenizer) stem(w string) string {
	if tk.stems == nil {
		return Stem(w)
	}
	if s, ok := tk.stems[w]; ok {
		return s
	}
	s := stem(w)
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

// IsWordRune reports whether r can be part of a word: a letter, a digit
// or a combining mark.
func IsWordRune(r rune) bool {
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
