package search

import (
	"cmp"
	"slices"
)

// rarePostings is the most postings the plain words of a query may have
// together before rarest drops some: below it, reading them all costs
// less than a millisecond and every word counts.
const rarePostings = 4096

// rarest keeps, of the plain words side by side at the top of a query,
// the k that the fewest memories hold, when together they have more than
// rarePostings postings, and drops the others before any of their
// postings is read: for a prompt of a dozen common words, the rare ones
// tell the memories apart and the common ones only cost reading their
// long lists. A word no memory holds ranks after every word some memory
// holds (only its near spellings can match). Anything but a plain word
// stays. It returns the query and how many words it dropped.
func rarest(v *view, root *node, k int) (*node, int) {
	if k <= 0 || root.kind != nAnd || !root.implicit {
		return root, 0
	}
	type word struct {
		n  *node
		df int
	}
	var words []word
	var rest []*node
	total := 0
	for _, kid := range root.kids {
		if kid.kind == nTerm && !kid.isStop {
			w := word{kid, v.docCount(kid.text)}
			words = append(words, w)
			total += w.df
		} else {
			rest = append(rest, kid)
		}
	}
	if len(words) <= k || total <= rarePostings {
		return root, 0
	}
	slices.SortStableFunc(words, func(a, b word) int {
		if (a.df == 0) != (b.df == 0) {
			if a.df == 0 {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.df, b.df)
	})
	out := *root
	out.kids = rest
	for _, w := range words[:k] {
		out.kids = append(out.kids, w.n)
	}
	return &out, len(words) - k
}

// docCount is how many documents the index lists for term, dead ones
// included, read from the dictionaries alone.
func (v *view) docCount(term string) int {
	n := 0
	for _, s := range v.segs {
		i := s.dict.find(term)
		if i < 0 {
			continue
		}
		_, val := s.dict.record(i)
		d := &dec{b: val}
		n += int(d.uvarint())
	}
	return n
}
