package search

import (
	"encoding/binary"
	"hash/crc32"
	"sort"
)

// builder collects documents and their postings and encodes a segment.
type builder struct {
	tk       *tokenizer
	seg      segment
	terms    map[string]*plist
	surfaces map[string]string
	cur      map[string]*docTerm // the document being added
	free     []*docTerm
}

// plist is one term's postings being built. main holds, per document,
// the delta of its number, a mask of the fields it occurs in, the count
// in each of them and the byte length of its positions, which pos holds
// (per field, delta-coded), so a query without phrases skips them.
type plist struct {
	n    int
	last uint32
	main []byte
	pos  []byte
}

// docTerm is a term's occurrences in the document being added.
type docTerm struct {
	tf  [numFields]uint32
	pos [numFields][]uint32
}

func newBuilder(id, baseID uint64) *builder {
	return &builder{
		tk:       &tokenizer{stems: make(map[string]string, 4096)},
		seg:      segment{id: id, baseID: baseID},
		terms:    make(map[string]*plist, 4096),
		surfaces: make(map[string]string, 4096),
		cur:      make(map[string]*docTerm, 256),
	}
}

// addSource records a source file and returns its number.
func (b *builder) addSource(s source) uint32 {
	b.seg.sources = append(b.seg.sources, s)
	return uint32(len(b.seg.sources) - 1)
}

// addDoc indexes a document's fields (name, description, tags, body).
func (b *builder) addDoc(d doc, fields *[numFields]string) {
	for f, text := range fields {
		d.lens[f] = uint32(b.tk.each(text, 0, func(w word) {
			dt := b.cur[w.term]
			if dt == nil {
				dt = b.newDocTerm()
				b.cur[w.term] = dt
			}
			dt.tf[f]++
			dt.pos[f] = append(dt.pos[f], uint32(w.pos))
			if _, ok := b.surfaces[w.folded]; !ok {
				b.surfaces[w.folded] = w.term
			}
		}))
	}
	id := uint32(len(b.seg.docs))
	b.seg.docs = append(b.seg.docs, d)
	for term, dt := range b.cur {
		b.addPosting(term, id, dt.tf, &dt.pos)
		b.free = append(b.free, dt)
	}
	clear(b.cur)
}

func (b *builder) newDocTerm() *docTerm {
	if n := len(b.free); n > 0 {
		dt := b.free[n-1]
		b.free = b.free[:n-1]
		dt.tf = [numFields]uint32{}
		for f := range dt.pos {
			dt.pos[f] = dt.pos[f][:0]
		}
		return dt
	}
	return &docTerm{}
}

// addPosting appends document id to a term's postings. Documents must
// come in increasing order.
func (b *builder) addPosting(term string, id uint32, tf [numFields]uint32, pos *[numFields][]uint32) {
	p := b.terms[term]
	if p == nil {
		p = &plist{}
		b.terms[term] = p
	}
	var mask byte
	start := len(p.pos)
	for f := range tf {
		if tf[f] == 0 {
			continue
		}
		mask |= 1 << f
		prev := uint32(0)
		for _, x := range pos[f] {
			p.pos = binary.AppendUvarint(p.pos, uint64(x-prev))
			prev = x
		}
	}
	p.main = binary.AppendUvarint(p.main, uint64(id-p.last))
	p.main = append(p.main, mask)
	for f := range tf {
		if tf[f] > 0 {
			p.main = binary.AppendUvarint(p.main, uint64(tf[f]))
		}
	}
	p.main = binary.AppendUvarint(p.main, uint64(len(p.pos)-start))
	p.last = id
	p.n++
}

// encode renders the segment as an index file.
func (b *builder) encode() []byte {
	e := &enc{b: make([]byte, headerLen, 1<<16)}
	s := &b.seg
	e.u64(s.id)
	e.u64(s.baseID)
	e.uvarint(uint64(len(s.dirs)))
	for _, d := range s.dirs {
		e.str(d.path)
		e.varint(d.mtime)
		e.byte1(flag(d.racy))
	}
	e.uvarint(uint64(len(s.sources)))
	for _, src := range s.sources {
		encodeSource(e, src)
	}
	e.uvarint(uint64(len(s.docs)))
	for i := range s.docs {
		encodeDoc(e, &s.docs[i])
	}
	e.uvarint(uint64(len(s.removed)))
	for _, r := range s.removed {
		e.str(r)
	}
	b.encodeTables(e)
	copy(e.b, magic)
	binary.LittleEndian.PutUint32(e.b[len(magic):], formatVersion)
	binary.LittleEndian.PutUint32(e.b[len(magic)+4:], crc32.Checksum(e.b[headerLen:], castagnoli()))
	return e.b
}

func encodeSource(e *enc, s source) {
	e.str(s.path)
	e.byte1(s.kind)
	e.varint(s.size)
	e.varint(s.mtime)
	e.varint(s.ctime)
	e.uvarint(s.ino)
	e.byte1(flag(s.racy))
}

func encodeDoc(e *enc, d *doc) {
	e.uvarint(uint64(d.src))
	e.byte1(typeByte(d.typ))
	e.byte1(flag(d.private))
	e.str(d.name)
	e.str(d.expires)
	e.varint(d.modified)
	e.uvarint(uint64(len(d.tags)))
	for _, t := range d.tags {
		e.str(t)
	}
	for _, l := range d.lens {
		e.uvarint(uint64(l))
	}
	e.uvarint(uint64(d.entry))
	e.uvarint(uint64(d.line))
	e.str(d.hash)
	e.str(d.day)
}

// encodeTables writes the dictionary (sorted terms and their postings)
// and the surface table (sorted folded words and their term's number).
// Words whose term has no postings left are dropped.
func (b *builder) encodeTables(e *enc) {
	terms := make([]string, 0, len(b.terms))
	for t, p := range b.terms {
		if p.n > 0 {
			terms = append(terms, t)
		}
	}
	sort.Strings(terms)
	num := make(map[string]int, len(terms))
	var rec enc
	writeTable(e, len(terms), &rec, func(i int) {
		num[terms[i]] = i
		p := b.terms[terms[i]]
		rec.str(terms[i])
		rec.uvarint(uint64(p.n))
		rec.uvarint(uint64(len(p.main)))
		rec.b = append(rec.b, p.main...)
		rec.uvarint(uint64(len(p.pos)))
		rec.b = append(rec.b, p.pos...)
	})
	words := make([]string, 0, len(b.surfaces))
	for w, t := range b.surfaces {
		if _, ok := num[t]; ok {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	rec.b = rec.b[:0]
	writeTable(e, len(words), &rec, func(i int) {
		rec.str(words[i])
		rec.uvarint(uint64(num[b.surfaces[words[i]]]))
	})
}

// writeTable writes n records that record(i) appends to rec: the count,
// the offsets, then the records.
func writeTable(e *enc, n int, rec *enc, record func(i int)) {
	offs := make([]uint32, n)
	for i := range n {
		offs[i] = uint32(len(rec.b))
		record(i)
	}
	e.uvarint(uint64(n))
	for _, o := range offs {
		e.u32(o)
	}
	e.uvarint(uint64(len(rec.b)))
	e.b = append(e.b, rec.b...)
}

func flag(b bool) byte {
	if b {
		return 1
	}
	return 0
}
