package search

// isStop reports whether a folded word is an English stop word: a word so
// common that a plain query does not require it ("who owns billing" needs
// owns and billing). Phrases keep them, and a query of nothing but stop
// words searches for them. A switch compiles to a binary search, which,
// unlike a map, costs nothing at process start.
func isStop(w string) bool {
	switch w {
	case "a", "about", "after", "all", "am", "an", "and",
		"any", "are", "aren", "aren't", "as", "at", "be", "because", "been", "before", "being",
		"between", "both", "but", "by", "can", "can't", "could", "did", "didn",
		"didn't", "do", "does", "doesn", "doesn't", "doing", "don", "don't", "during",
		"each", "for", "from", "had", "has", "have", "having", "he", "her",
		"here", "hers", "herself", "him", "himself", "his", "how", "i", "i'm", "i've", "if",
		"in", "into", "is", "isn", "isn't", "it", "it's", "its", "itself", "just", "let's",
		"me", "my", "myself", "no", "nor", "not", "of", "on", "once",
		"only", "or", "other", "our", "ours", "ourselves", "s", "same",
		"she", "should", "shouldn", "shouldn't", "so", "some", "such", "t", "than", "that",
		"that's", "the", "their", "theirs", "them", "themselves", "then", "there", "there's",
		"these", "they", "they're", "this", "those", "through", "to", "too", "until",
		"was", "wasn", "wasn't", "we", "we're", "we've", "were", "weren",
		"weren't", "what", "what's", "when", "where", "which", "while", "who", "who's", "whom",
		"whose", "why", "will", "with", "won", "won't", "would", "wouldn", "wouldn't", "you",
		"you're", "your", "yours", "yourself", "yourselves":
		return true
	}
	return isQuestionWord(w)
}

// isQuestionWord reports whether w is a word a question is asked with
// rather than about ("what kind of", "do you think", "did we decide",
// "what happened"): not required by a plain query, like a stop word.
// Month names are never among them ("may", "march"), nor words a memory
// is about.
func isQuestionWord(w string) bool {
	switch w {
	case "kind", "sort", "likely", "think", "thought", "know", "knew", "remember", "recall",
		"tell", "told", "say", "said", "note", "noted", "decide", "decided", "mention",
		"mentioned", "thing", "things", "anything", "something", "happen", "happens",
		"happened", "usually", "ever", "please", "also", "still", "much", "many":
		return true
	}
	return false
}
