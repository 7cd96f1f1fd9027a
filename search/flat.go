package search

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
	for _, k := range kids {
		if k.kind != nTerm {
			return nil, nil, false
		}
	}
	n := 0
	for _, s := range e.v.segs {
		n += s.ndoc()
	}
	score, words := make([]float64, n), make([]float64, n)
	held := make([]int32, n)
	var buf []posted
	for _, k := range kids {
		buf = e.posted(k.text, buf[:0])
		e.add(buf, k.weight, score, words, held)
	}
	kept := func(g int) bool { return held[g] > 0 && e.keep(int32(g)) }
	for g := range n {
		if held[g] == int32(len(kids)) && kept(g) {
			strict = append(strict, match{doc: int32(g), score: score[g], words: words[g]})
		}
	}
	if len(strict) >= limit || !relax {
		return strict, nil, true
	}
	for g := range n {
		if held[g] > 0 && held[g] < int32(len(kids)) && kept(g) {
			loose = append(loose, match{doc: int32(g), score: score[g], words: words[g]})
		}
	}
	return strict, loose, true
}

// posted is one live document's frequencies of a word.
type posted struct {
	g  int32
	tf [numFields]uint32
}

// posted appends the live documents that have term, kept or not (as
// termTF reads them, before keep), to buf.
func (e *evaluator) posted(term string, buf []posted) []posted {
	for i, s := range e.v.segs {
		p := s.lookup(term)
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
func (e *evaluator) add(ps []posted, weight float64, score, words []float64, held []int32) {
	if len(ps) == 0 {
		return
	}
	idf := e.idf(len(ps))
	for i := range ps {
		s, x := e.v.at(ps[i].g)
		lens := s.lens(x)
		sc, w := idf*e.saturate(&ps[i].tf, &lens), 1.0
		if weight != 0 {
			sc, w = sc*weight, fuzzyWords
		}
		score[ps[i].g] += sc
		words[ps[i].g] += w
		held[ps[i].g]++
	}
}
