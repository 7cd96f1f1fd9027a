package search

import "github.com/memdir/memdir/tokenize"

// isStop reports whether a folded word is one a plain query does not
// require: a stop word, a negation or a question word (tokenize owns the
// lists). Phrases keep them, and a query of nothing but such words
// searches for them.
func isStop(w string) bool {
	return tokenize.IsStopWord(w) || tokenize.IsNegation(w) || tokenize.IsQuestionWord(w)
}
