package dream

import (
	"fmt"
	"slices"
	"testing"

	"github.com/memdir/memdir/memdir"
)

// word is the i-th made-up word of a fact: letters only, never a number.
func word(i int) string {
	b := []byte{'q'}
	for ; i > 0 || len(b) == 1; i /= 26 {
		b = append(b, byte('a'+i%26))
	}
	return string(append(b, 'x'))
}

// TestCandidatesBounded: at ten times the topics a year of logs makes, an entry
// that shares the project's everyday words with every fact visits a
// bounded number of them, and a restatement of the oldest fact (rare
// words) is still found.
func TestCandidatesBounded(t *testing.T) {
	const facts = 5000
	w := &work{t: &memdir.Topic{File: "project_x.md"}, name: bag{}}
	text := func(i int) string {
		return fmt.Sprintf("%s %s %s in the memdir dream part, about %s.", word(4*i), word(4*i+1), word(4*i+2), word(4*i+3))
	}
	x := &factIndex{}
	var first *fact
	for i := range facts {
		f := newFact(w, text(i))
		if i == 0 {
			first = f
		}
		x.add(f)
	}
	fresh := memdir.TermsOf(text(facts))
	if got := x.candidates(fresh, fresh.Len()); len(got) != 0 {
		t.Errorf("a new fact has %d candidates, want none", len(got))
	}
	if len(x.hits) > postingCap {
		t.Errorf("a new fact visited %d facts, want at most %d (the newest of its rarest common word)", len(x.hits), postingCap)
	}
	old := memdir.TermsOf("In the memdir dream part, " + text(0))
	got := x.candidates(old, old.Len())
	if !slices.Contains(got, first) {
		t.Errorf("a restatement of the oldest fact misses it (%d candidates)", len(got))
	}
	if len(x.hits) > 2*postingCap {
		t.Errorf("a restatement visited %d facts, want at most %d", len(x.hits), 2*postingCap)
	}
}

// TestCandidatesCommonWordsOnly: a fact that shares only common words
// with an entry is found among the newest facts holding them.
func TestCandidatesCommonWordsOnly(t *testing.T) {
	w := &work{t: &memdir.Topic{File: "project_x.md"}, name: bag{}}
	x := &factIndex{}
	for i := range 3 * postingCap {
		x.add(newFact(w, fmt.Sprintf("The memdir dream part keeps %s notes.", word(i))))
	}
	short := newFact(w, "The memdir dream part keeps notes.")
	x.add(short)
	e := memdir.TermsOf("The memdir dream part keeps its notes, and more.")
	if got := x.candidates(e, e.Len()); !slices.Contains(got, short) {
		t.Errorf("the newest fact in common words only is not a candidate (%d candidates)", len(got))
	}
}
