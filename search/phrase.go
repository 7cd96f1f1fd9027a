package search

import "sort"

// phraseTF finds the documents where the phrase's words stand in order
// in one field; a document's frequency in a field is how often they do.
func (e *evaluator) phraseTF(seq []phraseTerm) *tfs {
	t := &tfs{}
	its := make([]postings, len(seq))
	pos := make([][]uint32, len(seq))
	for i, s := range e.v.segs {
		if !lookupAll(s, seq, its) {
			continue
		}
	docs:
		for its[0].next() {
			doc := its[0].doc
			for k := 1; k < len(its); k++ {
				if !seek(&its[k], doc) {
					break docs
				}
				if its[k].doc != doc {
					continue docs
				}
			}
			if int(doc) >= s.ndoc() || e.v.dead[i][doc] {
				continue
			}
			var tf [numFields]uint32
			total := uint32(0)
			for f := range tf {
				tf[f] = phraseCount(its, seq, f, pos)
				total += tf[f]
			}
			if total == 0 {
				continue
			}
			t.df++
			if g := e.v.first[i] + int32(doc); e.keep(g) {
				t.add(g, tf)
			}
		}
	}
	return t
}

// lookupAll fills its with the postings of each phrase word in s and
// reports whether every word occurs there.
func lookupAll(s *segment, seq []phraseTerm, its []postings) bool {
	for k, pt := range seq {
		its[k] = s.lookup(pt.term)
		if its[k].n == 0 {
			return false
		}
	}
	return true
}

// seek moves p to the first document at or after doc; false when none.
func seek(p *postings, doc uint32) bool {
	for p.i == 0 || p.doc < doc {
		if !p.next() {
			return false
		}
	}
	return true
}

// phraseCount counts the places in field f where every word of the
// phrase stands at its offset from the first.
func phraseCount(its []postings, seq []phraseTerm, f int, pos [][]uint32) uint32 {
	for k := range its {
		if its[k].tf[f] == 0 {
			return 0
		}
		pos[k] = its[k].positions(f, pos[k][:0])
	}
	var n uint32
	for _, start := range pos[0] {
		ok := true
		for k := 1; k < len(seq) && ok; k++ {
			want := start + uint32(seq[k].off)
			j := sort.Search(len(pos[k]), func(x int) bool { return pos[k][x] >= want })
			ok = j < len(pos[k]) && pos[k][j] == want
		}
		if ok {
			n++
		}
	}
	return n
}
