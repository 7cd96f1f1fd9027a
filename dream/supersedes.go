package dream

import "github.com/memdir/memdir/memdir"

// Supersedes is the dream's supersede rule for a single add: the index of
// the paragraph of a topic's paras that fact replaces (the same key set
// anew, or the words "instead of"/"no longer" naming what it replaces),
// or -1 when it replaces none. memdir.WithSupersede hands it to the store
// so that `memdir add` keeps a topic true as a dream would.
func Supersedes(topicName string, paras []string, fact string) int {
	facts := make([]memdir.Terms, len(paras))
	for i, p := range paras {
		facts[i] = memdir.TermsOf(p)
	}
	return supersedes(fact, facts, paras, "", topicName)
}
