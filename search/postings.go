package search

import (
	"encoding/binary"
	"hash/crc32"
)

// postings walks one term's postings in a segment, in document order.
type postings struct {
	main, pos []byte
	n, i      int
	mo, po    int // read offsets in main and pos
	doc       uint32
	mask      byte
	tf        [numFields]uint32
	at        int // where the current document's positions start in pos
	bad       bool
}

// term returns the postings of dictionary record i, and its term. Each
// posting takes at least two bytes of main (a document delta and a field
// mask), so a count past that is damage; so is a list that does not match
// its checksum, which marks the segment damaged (tail.damaged) and
// reads as no postings.
func (s *segment) term(i int) (string, postings) {
	key, val := s.dict.record(i)
	d := &dec{b: val}
	n, off, nmain, npos, sum := d.uvarint(), d.uvarint(), d.uvarint(), d.uvarint(), d.uvarint()
	size := uint64(s.tail.post.n)
	if d.bad || off > size || nmain > size-off || npos > size-off-nmain || n > nmain/2 {
		s.tail.damaged.Store(true)
		return key, postings{}
	}
	b := s.tail.postBytes(int64(off), int64(nmain+npos))
	if b == nil || uint64(crc32.Checksum(b, castagnoli())) != sum {
		s.tail.damaged.Store(true)
		return key, postings{}
	}
	return key, postings{n: int(n), main: b[:nmain], pos: b[nmain:]}
}

// lookup returns a term's postings; none when the term is absent.
func (s *segment) lookup(term string) postings {
	i := s.dict.find(term)
	if i < 0 {
		return postings{}
	}
	_, p := s.term(i)
	return p
}

// next moves to the next document and reports whether there is one.
func (p *postings) next() bool {
	if p.i >= p.n || p.bad {
		return false
	}
	p.i++
	delta := p.uvarint()
	p.doc += uint32(delta)
	if p.mo >= len(p.main) {
		p.bad = true
		return false
	}
	p.mask = p.main[p.mo]
	p.mo++
	for f := range p.tf {
		p.tf[f] = 0
		if p.mask&(1<<f) != 0 {
			p.tf[f] = uint32(p.uvarint())
		}
	}
	n := int(p.uvarint())
	if n < 0 || n > len(p.pos)-p.po {
		p.bad = true
	}
	p.at = p.po
	p.po += n
	return !p.bad
}

func (p *postings) uvarint() uint64 {
	v, w := binary.Uvarint(p.main[min(p.mo, len(p.main)):])
	if w <= 0 {
		p.bad = true
		return 0
	}
	p.mo += w
	return v
}

// positions appends the current document's positions in field f to buf.
func (p *postings) positions(f int, buf []uint32) []uint32 {
	b := p.pos[p.at:p.po]
	for g := 0; g <= f; g++ {
		if p.mask&(1<<g) == 0 {
			continue
		}
		prev := uint32(0)
		for k := uint32(0); k < p.tf[g]; k++ {
			v, w := binary.Uvarint(b)
			if w <= 0 {
				return buf
			}
			b = b[w:]
			prev += uint32(v)
			if g == f {
				buf = append(buf, prev)
			}
		}
	}
	return buf
}

// allPositions returns the current document's positions in every field.
func (p *postings) allPositions(out *[numFields][]uint32) {
	for f := range out {
		out[f] = out[f][:0]
		if p.tf[f] > 0 {
			out[f] = p.positions(f, out[f])
		}
	}
}
