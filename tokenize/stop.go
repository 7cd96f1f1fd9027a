package tokenize

import (
	"iter"
	"slices"
)

// The word lists below are switches, which compile to a binary search and,
// unlike a map, cost nothing at process start. They take a word as Words
// gives it: folded (lowercase, no diacritics).

// IsStopWord reports whether a folded word is an English stop word: a
// word so common that it tells no text apart. Search does not require one
// in a plain query ("who owns billing" needs owns and billing); the
// similarity of two memories leaves them out. Negations are not stop words
// (IsNegation: they flip a fact), nor are month names ("may").
func IsStopWord(w string) bool {
	switch w {
	case "a", "about", "after", "again", "all", "always", "am", "an", "and", "any", "are",
		"aren", "as", "at", "be", "because", "been", "before", "being", "between", "both",
		"but", "by", "can", "could", "did", "didn", "do", "does", "doesn", "doing", "don",
		"during", "each", "for", "from", "had", "has", "have", "having", "he", "her", "here",
		"hers", "herself", "him", "himself", "his", "how", "i", "i'm", "i've", "if", "in",
		"into", "is", "isn", "it", "it'll", "it's", "its", "itself", "just", "let's", "me",
		"might", "must", "my", "myself", "of", "on", "once", "only", "onto", "or", "other",
		"our", "ours", "ourselves", "out", "over", "per", "really", "s", "same", "shall",
		"she", "should", "shouldn", "so", "some", "such", "t", "than", "that", "that's",
		"the", "their", "theirs", "them", "themselves", "then", "there", "there's", "these",
		"they", "they're", "this", "those", "through", "to", "too", "under", "until", "up",
		"us", "very", "via", "was", "wasn", "we", "we'll", "we're", "we've", "were", "weren",
		"what", "what's", "when", "where", "which", "while", "who", "who's", "whom", "whose",
		"why", "will", "with", "won", "would", "wouldn", "you", "you're", "your", "yours",
		"yourself", "yourselves":
		return true
	}
	return false
}

// negations are the words IsNegation reports, sorted (a slice of
// constants is laid out by the linker: nothing runs at start).
var negations = []string{"aren't", "can't", "cannot", "didn't", "doesn't", "don't",
	"hasn't", "haven't", "instead", "isn't", "mustn't", "never", "no", "nor", "not",
	"rather", "shouldn't", "wasn't", "weren't", "without", "won't", "wouldn't"}

// IsNegation reports whether a folded word negates what it is said of
// ("not", "never", "don't", "without"). The similarity of two memories
// counts every negation as one term, so "use mocks" and "never use mocks"
// differ; a search does not require one in a plain query, as a stop word.
func IsNegation(w string) bool {
	_, ok := slices.BinarySearch(negations, w)
	return ok
}

// Negations returns every word IsNegation reports.
func Negations() iter.Seq[string] { return slices.Values(negations) }

// IsQuestionWord reports whether a folded word is one a question is asked
// with rather than about ("what kind of", "do you think", "did we
// decide", "what happened"). Search does not require one in a plain
// query, as a stop word; the similarity of two memories keeps them, since
// memories are statements, not questions. Month names are never among
// them ("may", "march"), nor words a memory is about.
func IsQuestionWord(w string) bool {
	switch w {
	case "kind", "sort", "likely", "think", "thought", "know", "knew", "remember", "recall",
		"tell", "told", "say", "said", "note", "noted", "decide", "decided", "mention",
		"mentioned", "thing", "things", "anything", "something", "happen", "happens",
		"happened", "usually", "ever", "please", "also", "still", "much", "many":
		return true
	}
	return false
}
