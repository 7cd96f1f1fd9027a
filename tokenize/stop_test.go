package tokenize

import (
	"slices"
	"testing"
)

// TestWordLists: the negations are sorted (IsNegation searches them), no
// word is in two lists (a negation must never be dropped as a stop word
// by the similarity of two memories), and month names are in none.
func TestWordLists(t *testing.T) {
	if !slices.IsSorted(negations) {
		t.Errorf("negations are not sorted: %q", negations)
	}
	for _, w := range negations {
		if !IsNegation(w) || IsStopWord(w) || IsQuestionWord(w) {
			t.Errorf("%q: negation %v, stop word %v, question word %v; want a negation alone", w, IsNegation(w), IsStopWord(w), IsQuestionWord(w))
		}
	}
	for _, w := range []string{"kind", "think", "happened", "also"} {
		if !IsQuestionWord(w) || IsStopWord(w) {
			t.Errorf("%q: question word %v, stop word %v; want a question word alone", w, IsQuestionWord(w), IsStopWord(w))
		}
	}
	for _, w := range []string{"the", "who", "it's", "via", "up"} {
		if !IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"january", "march", "may", "june", "billing", "owns", "deploy", "note-taking", ""} {
		if IsStopWord(w) || IsNegation(w) || IsQuestionWord(w) {
			t.Errorf("%q is in a word list; want none", w)
		}
	}
}
