package search

import (
	"slices"
	"unicode/utf8"
)

// Typo tolerance. A word of a query that no document holds (grafna,
// pnmp) is read as the words of the index within a small edit distance
// of it: insertions, deletions, substitutions and swaps of two
// neighbouring letters (optimal string alignment, so pnmp is one edit
// from pnpm; plain Levenshtein, as agnivade/levenshtein computes it,
// makes a swap two edits and would need a looser bound that lets most
// short words match). The near words score at a fraction of an exact
// match, so a memory that has the word as typed, or a closer spelling,
// comes first. The scan goes over the segment's word list once per
// misspelled word, skipping words whose length rules them out, and the
// distance gives up as soon as it passes the bound.
const (
	maxFuzzyWords = 4    // misspelled words of one query read as near words
	maxFuzzyCands = 6    // near words one misspelled word stands for
	fuzzyWeight1  = 0.2  // score factor of a word one edit away
	fuzzyWeight2  = 0.15 // and two edits away
	fuzzyWords    = 0.5  // a near word counts as half a word
)

// fuzzyBound is how many edits a near word of a typed word of n bytes
// may be away: none for three letters or fewer, where one edit reaches
// most short words.
func fuzzyBound(n int) int {
	switch {
	case n < 4:
		return 0
	case n < 8:
		return 1
	}
	return 2
}

// fuzz replaces each word of the query that the index lacks by the near
// words it has, and adds them to the words a snippet marks.
func (e *evaluator) fuzz(pq *parsed) {
	left := maxFuzzyWords
	var walk func(n *node)
	walk = func(n *node) {
		switch {
		case left == 0 || n.kind == nNot || n.kind == nPhrase || n.alt:
			return
		case n.kind == nTerm:
			if n.typed == "" || n.isStop || e.holds(n.text) {
				return
			}
			left--
			if cands := e.near(n.typed); len(cands) > 0 {
				*n = node{kind: nOr, alt: true, kids: cands}
				for _, c := range cands {
					pq.terms[c.text] = true
				}
			}
			return
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(pq.root)
}

// holds reports whether some segment's dictionary has term.
func (e *evaluator) holds(term string) bool {
	for _, s := range e.v.segs {
		if s.dict.find(term) >= 0 {
			return true
		}
	}
	return false
}

type nearWord struct {
	term string
	dist int
	df   int
}

// near lists the terms of the index's words within fuzzyBound edits of
// the folded word w, nearest and then commonest first, as term nodes
// weighted by distance.
func (e *evaluator) near(w string) []*node {
	k := fuzzyBound(len(w))
	if k == 0 || !utf8.ValidString(w) {
		return nil
	}
	var found []nearWord
	var d osa
	for _, s := range e.v.segs {
		for i := 0; i < s.surfaces.n; i++ {
			key := s.surfaces.keyAt(i)
			if len(key) < len(w)-k || len(key) > len(w)+k {
				continue
			}
			dist := d.distance(w, key, k)
			if dist > k {
				continue
			}
			_, val := s.surfaces.record(i)
			dc := &dec{b: val}
			if n := int(dc.uvarint()); !dc.bad && n < s.dict.n {
				term, _ := s.dict.record(n)
				found = addNear(found, nearWord{term: term, dist: dist, df: s.lookup(term).n})
			}
		}
	}
	slices.SortFunc(found, func(a, b nearWord) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return b.df - a.df
	})
	var out []*node
	for _, f := range found[:min(len(found), maxFuzzyCands)] {
		w := fuzzyWeight1
		if f.dist > 1 {
			w = fuzzyWeight2
		}
		out = append(out, &node{kind: nTerm, text: f.term, weight: w})
	}
	return out
}

// addNear adds f to found, keeping one entry per term: the nearest, and
// the document frequencies of its segments summed.
func addNear(found []nearWord, f nearWord) []nearWord {
	for i := range found {
		if found[i].term == f.term {
			found[i].dist = min(found[i].dist, f.dist)
			found[i].df += f.df
			return found
		}
	}
	return append(found, f)
}

// osa computes the optimal string alignment distance of two words,
// reusing its rows.
type osa struct{ rows [3][]int }

// distance is the number of insertions, deletions, substitutions and
// swaps of neighbouring bytes that turn a into b, or k+1 once that must
// exceed k.
func (o *osa) distance(a string, b []byte, k int) int {
	n := len(b)
	for i := range o.rows {
		o.rows[i] = slices.Grow(o.rows[i][:0], n+1)[:n+1]
	}
	prev2, prev, cur := o.rows[0], o.rows[1], o.rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := i
		for j := 1; j <= n; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > k {
			return k + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[n], k+1)
}

// weigh scales the scores of ms by w (a near spelling's weight), and
// counts a near spelling as half a word when words side by side relax to
// OR; 0 leaves them.
func weigh(ms []match, w float64) []match {
	if w == 0 {
		return ms
	}
	for i := range ms {
		ms[i].score *= w
		ms[i].words = fuzzyWords
	}
	return ms
}
