package search

import (
	"encoding/binary"
	"hash/crc32"
	"sort"
	"time"
)

// builder collects documents and their postings and encodes a segment.
type builder struct {
	tk       *tokenizer
	id       uint64
	baseID   uint64
	dirs     []stamp
	sources  []source
	docs     []doc
	removed  []string
	terms    map[string]*plist
	surfaces map[string]string
	cur      map[string]*docTerm // the document being added
	free     []*docTerm
	// progress, when set, hears each source file added, of total.
	progress func(done, total int)
	total    int
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
		tk:       newTokenizer(),
		id:       id,
		baseID:   baseID,
		terms:    make(map[string]*plist, 4096),
		surfaces: make(map[string]string, 4096),
		cur:      make(map[string]*docTerm, 256),
	}
}

// WithProgress makes fn hear how many files a build of the index from
// every file (the first search's, or after damage) has indexed, of how
// many, and returns the index. An update of a few changed files, the
// usual search, reports nothing.
func (ix *Index) WithProgress(fn func(done, total int)) *Index {
	ix.progress = fn
	return ix
}

// addSource records a source file and returns its number.
func (b *builder) addSource(s source) uint32 {
	b.sources = append(b.sources, s)
	if b.progress != nil {
		b.progress(len(b.sources), b.total)
	}
	return uint32(len(b.sources) - 1)
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
	b.addDates(&d, fields)
	id := uint32(len(b.docs))
	b.docs = append(b.docs, d)
	for term, dt := range b.cur {
		b.addPosting(term, id, dt.tf, &dt.pos)
		b.free = append(b.free, dt)
	}
	clear(b.cur)
}

// addDates gives the document being added its date terms (dates.go),
// in the body, just past its last word.
func (b *builder) addDates(d *doc, fields *[numFields]string) {
	own := []string{d.meta.created, d.meta.modified, d.day}
	if d.meta.created == "" && d.meta.modified == "" && d.day == "" {
		own = append(own, time.Unix(d.modified, 0).UTC().Format(time.DateOnly))
	}
	for _, t := range dateTerms(own, fields) {
		dt := b.cur[t]
		if dt == nil {
			dt = b.newDocTerm()
			b.cur[t] = dt
		}
		if dt.tf[fieldBody] == 0 {
			dt.tf[fieldBody] = 1
			dt.pos[fieldBody] = append(dt.pos[fieldBody], d.lens[fieldBody])
		}
	}
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

// encode renders the segment as an index file. Sources are written
// sorted by path, each with the range of its documents (which the
// builder adds source by source); documents keep their numbers.
func (b *builder) encode() []byte {
	e := &enc{b: make([]byte, headerLen, 1<<16)}
	e.u64(b.id)
	e.u64(b.baseID)
	e.uvarint(uint64(len(b.dirs)))
	for _, d := range b.dirs {
		e.str(d.path)
		e.varint(d.mtime)
		e.byte1(flag(d.racy))
	}
	order := make([]int, len(b.sources))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return b.sources[order[x]].path < b.sources[order[y]].path })
	renum := make([]uint32, len(b.sources))
	for at, i := range order {
		renum[i] = uint32(at)
	}
	first := make([]uint32, len(b.sources))
	count := make([]uint32, len(b.sources))
	for i := range b.docs {
		if s := b.docs[i].src; count[s] == 0 {
			first[s] = uint32(i)
		}
		count[b.docs[i].src]++
	}
	var blob enc
	e.uvarint(uint64(len(order)))
	for _, i := range order {
		s := &b.sources[i]
		e.u64(uint64(s.size))
		e.u64(uint64(s.mtime))
		e.u64(uint64(s.ctime))
		e.u64(s.ino)
		e.u32(uint32(len(blob.b)))
		e.u32(uint32(len(s.path)))
		blob.b = append(append(blob.b, s.path...), 0)
		e.u32(first[i])
		e.u32(count[i])
		e.b = append(e.b, s.kind, flag(s.racy), 0, 0, 0, 0, 0, 0)
	}
	e.uvarint(uint64(len(blob.b)))
	e.b = append(e.b, blob.b...)
	blob.b = blob.b[:0]
	var sums [numFields]uint64
	e.uvarint(uint64(len(b.docs)))
	for i := range b.docs {
		d := &b.docs[i]
		e.u32(renum[d.src])
		e.b = append(e.b, typeByte(d.typ), flag(d.private), flag(d.expires != ""), 0)
		e.u32(d.entry)
		e.u32(d.line)
		e.u64(uint64(d.modified))
		for f, l := range d.lens {
			e.u32(l)
			sums[f] += uint64(l)
		}
		start := len(blob.b)
		blob.str(d.name)
		blob.str(d.expires)
		blob.uvarint(uint64(len(d.tags)))
		for _, t := range d.tags {
			blob.str(t)
		}
		blob.str(d.hash)
		blob.str(d.day)
		e.u32(uint32(start))
		e.u32(uint32(len(blob.b) - start))
	}
	e.uvarint(uint64(len(blob.b)))
	e.b = append(e.b, blob.b...)
	for _, s := range sums {
		e.u64(s)
	}
	e.uvarint(uint64(len(b.removed)))
	for _, r := range b.removed {
		e.str(r)
	}
	post := b.encodeTables(e)
	var meta enc
	for i := range b.docs {
		m := &b.docs[i].meta
		meta.str(m.desc)
		meta.str(m.created)
		meta.str(m.modified)
		meta.byte1(flag(m.unparsed))
	}
	copy(e.b, magic)
	binary.LittleEndian.PutUint32(e.b[hdrVersion:], formatVersion)
	binary.LittleEndian.PutUint32(e.b[hdrBodyCRC:], crc32.Checksum(e.b[headerLen:], castagnoli()))
	binary.LittleEndian.PutUint64(e.b[hdrPostLen:], uint64(len(post)))
	binary.LittleEndian.PutUint32(e.b[hdrPostCRC:], crc32.Checksum(post, castagnoli()))
	binary.LittleEndian.PutUint32(e.b[hdrMetaLen:], uint32(len(meta.b)))
	binary.LittleEndian.PutUint32(e.b[hdrMetaCRC:], crc32.Checksum(meta.b, castagnoli()))
	return append(append(e.b, meta.b...), post...)
}

// encodeTables writes the dictionary (sorted terms, each with its number
// of documents, where its postings lie in the postings region and their
// CRC-32C) and the
// surface table (sorted folded words and their term's number), and
// returns the postings region: each term's documents then its positions.
// Words whose term has no postings left are dropped.
func (b *builder) encodeTables(e *enc) []byte {
	terms := make([]string, 0, len(b.terms))
	for t, p := range b.terms {
		if p.n > 0 {
			terms = append(terms, t)
		}
	}
	sort.Strings(terms)
	num := make(map[string]int, len(terms))
	var rec, post enc
	writeTable(e, len(terms), &rec, func(i int) {
		num[terms[i]] = i
		p := b.terms[terms[i]]
		rec.str(terms[i])
		rec.uvarint(uint64(p.n))
		rec.uvarint(uint64(len(post.b)))
		rec.uvarint(uint64(len(p.main)))
		rec.uvarint(uint64(len(p.pos)))
		start := len(post.b)
		post.b = append(append(post.b, p.main...), p.pos...)
		rec.uvarint(uint64(crc32.Checksum(post.b[start:], castagnoli())))
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
	return post.b
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
