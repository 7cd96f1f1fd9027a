package search

import "math"

// flat evaluates the commonest query, plain words side by side (a
// prompt, a search of a few words), in one pass over each word's
// postings, and returns what eval returns for it: the documents that have
// every word (strict) and, when fewer than limit do and the words may
// relax to OR, those that have some (loose, not yet scaled by their share
// of the words). ok is false for any other query, which eval runs.
//
// eval keeps every word's documents in lists of their own, filters each
// posting through keep and runs the whole query a second time to relax
// it. Per-prompt recall, a fresh process at every prompt, spent most of
// its ranking there: five words of a generated 10,000-topic memory, each
// in 6,000 documents, made 30,000 filtered postings and 1.3 MB of lists
// to fault in. Here the scores add up in arrays over the documents, in
// the words' order (so every sum is the one eval makes, bit for bit), and
// keep is asked once for each document that could be returned.
// TestFlatMatchesEval holds the two to the same answer.
func (e *evaluator) flat(root *node, limit int) (strict, loose []match, ok bool) {
	kids, relax := []*node{root}, false
	if root.kind == nAnd {
		kids, relax = root.kids, root.implicit
	}
	if len(kids) > math.MaxUint8 {
		return nil, nil, false
	}
	for _, k := range kids {
		if k.kind != nTerm {
			return nil, nil, false
		}
	}
	n := 0
	for _, s := range e.v.segs {
		n += s.ndoc()
	}
	// held counts the words a document has, halves those of them that
	// are near spellings (fuzzyWords of a word each: the sum eval makes).
	score := make([]float64, n)
	held, halves := make([]uint8, n), make([]uint8, n)
	lists := make([][]postings, len(kids))
	most := 0
	for i, k := range kids {
		lists[i] = e.lists(k.text)
		size := 0
		for _, p := range lists[i] {
			size += p.n
		}
		most = max(most, size)
	}
	buf := make([]posted, 0, most)
	for i, k := range kids {
		buf = e.posted(lists[i], buf[:0])
		e.add(buf, k.weight, score, held, halves)
	}
	match := func(g int) match {
		return match{doc: int32(g), score: score[g], words: float64(held[g]-halves[g]) + fuzzyWords*float64(halves[g])}
	}
	for g := range score {
		if int(held[g]) == len(kids) && e.keep(int32(g)) {
			strict = append(strict, match(g))
		}
	}
	if len(strict) >= limit || !relax {
		return strict, nil, true
	}
	for g := range score {
		if held[g] > 0 && int(held[g]) < len(kids) && e.keep(int32(g)) {
			loose = append(loose, match(g))
		}
	}
	return strict, loose, true
}

// posted is one live document's frequencies of a word.
type posted struct {
	g  int32
	tf [numFields]uint32
}

// lists are the postings of term in each segment.
func (e *evaluator) lists(term string) []postings {
	ps := make([]postings, len(e.v.segs))
	for i, s := range e.v.segs {
		ps[i] = s.lookup(term)
	}
	return ps
}

// posted appends the live documents of a word's postings, kept or not
// (as termTF reads them, before keep), to buf.
func (e *evaluator) posted(lists []postings, buf []posted) []posted {
	for i, s := range e.v.segs {
		p := &lists[i]
		for p.next() {
			if int(p.doc) >= s.ndoc() || e.v.dead[i][p.doc] {
				continue
			}
			buf = append(buf, posted{g: e.v.first[i] + int32(p.doc), tf: p.tf})
		}
	}
	return buf
}

// add scores one word in the documents that have it, as leaf and weigh
// do, and adds it to their sums.
func (e *evaluator) add(ps []posted, weight float64, score []float64, held, halves []uint8) {
	if len(ps) == 0 {
		return
	}
	idf := e.idf(len(ps))
	for i := range ps {
		g := ps[i].g
		s, x := e.v.at(g)
		lens := s.lens(x)
		sc := idf * e.saturate(&ps[i].tf, &lens)
		if weight != 0 {
			sc *= weight
			halves[g]++
		}
		score[g] += sc
		held[g]++
	}
}
