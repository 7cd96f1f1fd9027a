package search

// absorb copies the documents of s whose source is not dead into the
// builder, postings and all, without reading or tokenizing anything
// again. Documents keep their order, after those already in the builder.
func (b *builder) absorb(s *segment, dead map[string]bool) {
	metas, _ := s.metas() // read and checked by the caller (update)
	srcMap := make([]int64, s.nsrc())
	for i := range srcMap {
		srcMap[i] = -1
		if src := s.source(i); !dead[src.path] {
			srcMap[i] = int64(b.addSource(src))
		}
	}
	docMap := make([]int64, s.ndoc())
	for i := range docMap {
		docMap[i] = -1
		if d := s.doc(i); srcMap[d.src] >= 0 {
			d.src = uint32(srcMap[d.src])
			if i < len(metas) {
				d.meta = metas[i]
			}
			docMap[i] = int64(len(b.docs))
			b.docs = append(b.docs, d)
		}
	}
	var pos [numFields][]uint32
	for i := 0; i < s.dict.n; i++ {
		term, p := s.term(i)
		for p.next() {
			if int(p.doc) >= len(docMap) || docMap[p.doc] < 0 {
				continue
			}
			p.allPositions(&pos)
			b.addPosting(term, uint32(docMap[p.doc]), p.tf, &pos)
		}
	}
	for i := 0; i < s.surfaces.n; i++ {
		w, val := s.surfaces.record(i)
		if _, ok := b.surfaces[w]; ok {
			continue
		}
		d := &dec{b: val}
		if t := int(d.uvarint()); !d.bad && t < s.dict.n {
			term, _ := s.dict.record(t)
			b.surfaces[w] = term
		}
	}
}
