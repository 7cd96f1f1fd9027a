package search

import "github.com/memdir/memdir/tokenize"

// maxWordBytes is the longest word indexed (package tokenize's limit).
const maxWordBytes = tokenize.MaxWordBytes

// word is one token of a text, as package tokenize gives it: its folded
// form, its index term, its position and, for a compound's whole, whole.
type word struct {
	folded     string
	term       string
	pos        int
	whole      bool
	start, end int // byte range in the text
}

// tokenizer is package tokenize's tokenizer, the one search and
// similarity share; it is not safe for concurrent use.
type tokenizer struct{ tk *tokenize.Tokenizer }

func newTokenizer() *tokenizer { return &tokenizer{tk: tokenize.New()} }

// each calls fn for every word of text, positions counting from pos. It
// returns the next free position.
func (t *tokenizer) each(text string, pos int, fn func(word)) int {
	return t.tk.Each(text, pos, func(w tokenize.Word) {
		fn(word{folded: w.Folded, term: w.Term, pos: w.Pos, whole: w.Whole, start: w.Start, end: w.End})
	})
}

func isWordRune(r rune) bool { return tokenize.IsWordRune(r) }
