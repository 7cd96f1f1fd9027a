package search

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"path/filepath"
	"sort"
	"strings"
	"unsafe"

	"github.com/memdir/memdir/typesx"
)

// The index file: a header (magic, format version, CRC-32C of the body,
// the postings region's length and CRC-32C, the meta region's length and
// CRC-32C, 4 bytes of padding), the body, the meta region (topicMeta of
// every document, in order) and the postings region, which a one-shot
// search reads term by term (see tail). formatVersion changes whenever
// the format or the tokenizer changes, so an index written by another
// memdir is rebuilt, never misread (2: a topic whose broken frontmatter
// says private is private; 3: fixed-size source and document records read
// in place; 4: postings in a region of their own; 5: the meta region;
// 6: conflict copies left out; 7: date terms).
const (
	magic         = "MDSEARCH"
	formatVersion = 7
	headerLen     = len(magic) + 32
	hdrVersion    = len(magic)
	hdrBodyCRC    = len(magic) + 4
	hdrPostLen    = len(magic) + 8
	hdrPostCRC    = len(magic) + 16
	hdrMetaLen    = len(magic) + 20
	hdrMetaCRC    = len(magic) + 24
)

// Fields of a document, in weight order.
const (
	fieldName = iota
	fieldDesc
	fieldTags
	fieldBody
	numFields
)

// Kinds of source file.
const (
	srcTopic = 1
	srcLog   = 2
)

// source is a file the index read, with the stamp it had then.
type source struct {
	path  string // relative to the memory directory, slash-separated
	kind  byte
	size  int64
	mtime int64 // nanoseconds
	ctime int64 // nanoseconds; a copy that keeps the mtime still changes it
	ino   uint64
	// racy is set when the file changed so shortly before it was read
	// that a later change could keep the same stamp: it is read again.
	racy bool
}

// docHead is the fixed part of a document, which ranking and filters
// read for every candidate: it is read from the index file in place.
type docHead struct {
	src      uint32 // index in the segment's sources
	typ      typesx.Type
	private  bool
	expiring bool  // it has an expiry date
	modified int64 // unix seconds
	lens     [numFields]uint32
	// Log entries: the 1-based entry number in its day file and its line.
	entry, line uint32
}

// doc is one searchable memory: a topic, or a daily-log entry.
type doc struct {
	docHead
	name    string
	expires string
	tags    []string
	// Log entries: the entry's dailylog hash and its day.
	hash string
	day  string
	// meta is kept in the file's meta region, read by Topics and merges
	// alone.
	meta topicMeta
}

// topicMeta is what Topics shows of a topic and ranking never needs: its
// description, its created and modified stamps as written (RFC 3339, ""
// when absent) and whether its frontmatter did not parse. A log entry's
// is empty.
type topicMeta struct {
	desc, created, modified string
	unparsed                bool
}

// stamp is a directory's modification time when it was listed.
type stamp struct {
	path  string
	mtime int64
	racy  bool
}

// segment is one index file: the sources it read, their documents and
// an inverted index over them. A delta segment applies on top of the
// base whose id it names, and masks the base's copies of the paths in
// removed. Sources and documents are fixed-size records read in place
// (a search of 10,000 topics decoded 2 MB of them into memory it had to
// fault in, a third of its time), each pointing into a blob for its
// strings; sources are sorted by path, and a source's documents are
// consecutive.
type segment struct {
	id, baseID uint64
	dirs       []stamp
	srcs       records
	docs       records
	lensSum    [numFields]uint64 // over every document, for the average lengths
	removed    []string
	dict       table // term -> where its postings lie in post
	surfaces   table // folded word -> term number in dict
	tail       *tail
	size       int // of the whole file
}

// records is n fixed-size records and the blob of what they point to.
type records struct {
	n    int
	recs []byte
	blob []byte
}

// The fixed records. A source: size, mtime, ctime and inode (8 bytes
// each), its path's offset and length in the blob (where a NUL follows
// it, for the system calls), its documents' first number and count, its
// kind and racy flag, padding. A document: its source, type, private and
// expiring flags, padding, entry and line, modified (8 bytes), the four
// field lengths, and its strings' offset and length in the blob (name,
// expires, tags, hash, day).
const (
	srcRecLen = 56
	docRecLen = 48
)

func (r records) rec(i, size int) []byte { return r.recs[i*size : (i+1)*size] }

func le32(b []byte, at int) uint32 { return binary.LittleEndian.Uint32(b[at:]) }
func le64(b []byte, at int) int64  { return int64(binary.LittleEndian.Uint64(b[at:])) }

// nsrc and ndoc are how many sources and documents s holds.
func (s *segment) nsrc() int { return s.srcs.n }
func (s *segment) ndoc() int { return s.docs.n }

// srcPath is source i's path; it points into the index file's bytes
// (see dec.str).
func (s *segment) srcPath(i int) string {
	r := s.srcs.rec(i, srcRecLen)
	off, n := int(le32(r, 32)), int(le32(r, 36))
	if n == 0 {
		return ""
	}
	return unsafe.String(&s.srcs.blob[off], n)
}

func (s *segment) srcKind(i int) byte { return s.srcs.rec(i, srcRecLen)[48] }

// srcDocs is the range of source i's documents.
func (s *segment) srcDocs(i int) (first, n int) {
	r := s.srcs.rec(i, srcRecLen)
	return int(le32(r, 40)), int(le32(r, 44))
}

// sameStamp reports whether source i has the stamp (size, times, inode
// and kind) of st. An atomic save (a new inode) or a copy that keeps the
// modification time (a new change time) is a change even at the same
// size and mtime.
func (s *segment) sameStamp(i int, st *source) bool {
	r := s.srcs.rec(i, srcRecLen)
	return le64(r, 0) == st.size && le64(r, 8) == st.mtime && le64(r, 16) == st.ctime &&
		uint64(le64(r, 24)) == st.ino && r[48] == st.kind
}

// srcRacy reports whether source i was stamped too soon after a change
// to trust the stamp.
func (s *segment) srcRacy(i int) bool { return s.srcs.rec(i, srcRecLen)[49] == 1 }

// source is source i in full.
func (s *segment) source(i int) source {
	r := s.srcs.rec(i, srcRecLen)
	return source{path: s.srcPath(i), size: le64(r, 0), mtime: le64(r, 8), ctime: le64(r, 16),
		ino: uint64(le64(r, 24)), kind: r[48], racy: r[49] == 1}
}

// findSource is the number of the source at path p, or -1.
func (s *segment) findSource(p string) int {
	i := sort.Search(s.srcs.n, func(i int) bool { return s.srcPath(i) >= p })
	if i < s.srcs.n && s.srcPath(i) == p {
		return i
	}
	return -1
}

// head is document i's fixed part.
func (s *segment) head(i int) docHead {
	r := s.docs.rec(i, docRecLen)
	h := docHead{src: le32(r, 0), typ: typeOf(r[4]), private: r[5] == 1, expiring: r[6] == 1,
		entry: le32(r, 8), line: le32(r, 12), modified: le64(r, 16)}
	for f := range h.lens {
		h.lens[f] = le32(r, 24+4*f)
	}
	return h
}

// docSrc is document i's source.
func (s *segment) docSrc(i int) int { return int(le32(s.docs.rec(i, docRecLen), 0)) }

// lens is document i's field lengths.
func (s *segment) lens(i int) [numFields]uint32 {
	r := s.docs.rec(i, docRecLen)
	return [numFields]uint32{le32(r, 24), le32(r, 28), le32(r, 32), le32(r, 36)}
}

// strs is a decoder over document i's strings.
func (s *segment) strs(i int) dec {
	r := s.docs.rec(i, docRecLen)
	off, n := int(le32(r, 40)), int(le32(r, 44))
	return dec{b: s.docs.blob[off : off+n]}
}

// name is document i's name.
func (s *segment) name(i int) string {
	d := s.strs(i)
	return d.str()
}

// expires is document i's expiry date, or "".
func (s *segment) expires(i int) string {
	d := s.strs(i)
	d.str()
	return d.str()
}

// doc is document i in full; its strings point into the index file.
func (s *segment) doc(i int) doc {
	x := doc{docHead: s.head(i)}
	d := s.strs(i)
	x.name, x.expires = d.str(), d.str()
	if n := d.count(1); n > 0 {
		x.tags = make([]string, n)
		for k := range x.tags {
			x.tags[k] = d.str()
		}
	}
	x.hash, x.day = d.str(), d.str()
	return x
}

// metas is every document's topicMeta, in order, from the meta region
// (read whole and checked the first time); errCorrupt when it does not
// check or decode.
func (s *segment) metas() ([]topicMeta, error) {
	if err := s.tail.load(&s.tail.meta); err != nil {
		return nil, err
	}
	d := &dec{b: s.tail.meta.data}
	out := make([]topicMeta, s.ndoc())
	for i := range out {
		out[i] = topicMeta{desc: d.str(), created: d.str(), modified: d.str(), unparsed: d.byte1() == 1}
	}
	if d.bad || d.off != len(d.b) {
		return nil, errCorrupt
	}
	return out, nil
}

// table is a sorted list of records keyed by strings, read in place:
// n little-endian uint32 offsets, then the records, each its key (a
// uvarint length and the bytes) and a value.
type table struct {
	offs []byte
	blob []byte
	n    int
}

// record returns the key and the value bytes of record i.
func (t table) record(i int) (string, []byte) {
	off := int(binary.LittleEndian.Uint32(t.offs[4*i:]))
	if off >= len(t.blob) {
		return "", nil
	}
	n, w := binary.Uvarint(t.blob[off:])
	if w <= 0 || uint64(len(t.blob)-off-w) < n {
		return "", nil
	}
	start := off + w
	return string(t.blob[start : start+int(n)]), t.blob[start+int(n):]
}

// keyAt is record i's key without copying it, for comparisons.
func (t table) keyAt(i int) []byte {
	off := int(binary.LittleEndian.Uint32(t.offs[4*i:]))
	if off >= len(t.blob) {
		return nil
	}
	n, w := binary.Uvarint(t.blob[off:])
	if w <= 0 || uint64(len(t.blob)-off-w) < n {
		return nil
	}
	return t.blob[off+w : off+w+int(n)]
}

// lowerBound is the first record whose key is not below k.
func (t table) lowerBound(k string) int {
	kb := []byte(k)
	return sort.Search(t.n, func(i int) bool { return bytes.Compare(t.keyAt(i), kb) >= 0 })
}

// find returns the record whose key is k, or -1.
func (t table) find(k string) int {
	i := t.lowerBound(k)
	if i < t.n && string(t.keyAt(i)) == k {
		return i
	}
	return -1
}

// decodeSegment reads a whole index file, every checksum included.
// Anything wrong with it (another format, a bad checksum, a truncated or
// garbage body, a record pointing outside its blob) is errCorrupt: what
// it accepts, the accessors read without a bounds failure.
func decodeSegment(data []byte) (*segment, error) {
	if len(data) < headerLen {
		return nil, errCorrupt
	}
	np := binary.LittleEndian.Uint64(data[hdrPostLen:])
	nm := uint64(binary.LittleEndian.Uint32(data[hdrMetaLen:]))
	if np > uint64(len(data)-headerLen) || nm > uint64(len(data)-headerLen)-np {
		return nil, errCorrupt
	}
	split := len(data) - int(np) - int(nm)
	t := &tail{meta: region{off: int64(split), n: int64(nm), data: data[split : split+int(nm)]},
		post: region{off: int64(split) + int64(nm), n: int64(np), data: data[split+int(nm):]}}
	if crc32.Checksum(t.meta.data, castagnoli()) != binary.LittleEndian.Uint32(data[hdrMetaCRC:]) ||
		crc32.Checksum(t.post.data, castagnoli()) != binary.LittleEndian.Uint32(data[hdrPostCRC:]) {
		return nil, errCorrupt
	}
	return decodeHead(data[:split], t)
}

// decodeHead reads an index file's header and body (all of it but the
// tail, which t reaches).
func decodeHead(data []byte, t *tail) (*segment, error) {
	if len(data) < headerLen || string(data[:len(magic)]) != magic ||
		binary.LittleEndian.Uint32(data[hdrVersion:]) != formatVersion ||
		binary.LittleEndian.Uint64(data[hdrPostLen:]) != uint64(t.post.n) ||
		int64(binary.LittleEndian.Uint32(data[hdrMetaLen:])) != t.meta.n {
		return nil, errCorrupt
	}
	body := data[headerLen:]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(data[hdrBodyCRC:]) {
		return nil, errCorrupt
	}
	d := &dec{b: body}
	s := &segment{id: d.u64(), baseID: d.u64(), size: len(data) + int(t.meta.n+t.post.n), tail: t}
	s.dirs = make([]stamp, d.count(3))
	for i := range s.dirs {
		s.dirs[i] = stamp{path: d.str(), mtime: d.varint(), racy: d.byte1() == 1}
		if !filepath.IsLocal(filepath.FromSlash(s.dirs[i].path)) {
			d.bad = true // a directory outside the memory directory
		}
	}
	s.srcs = decodeRecords(d, srcRecLen)
	s.docs = decodeRecords(d, docRecLen)
	for f := range s.lensSum {
		s.lensSum[f] = d.u64()
	}
	s.removed = make([]string, d.count(1))
	for i := range s.removed {
		s.removed[i] = d.str()
	}
	s.dict = decodeTable(d)
	s.surfaces = decodeTable(d)
	if d.bad || d.off != len(body) || !s.valid() {
		return nil, errCorrupt
	}
	return s, nil
}

func decodeRecords(d *dec, size int) records {
	n := d.count(size)
	recs := d.bytes(n * size)
	return records{n: n, recs: recs, blob: d.bytes(d.count(1))}
}

// valid checks every record: sources sorted by path, each path inside
// the blob and followed by its NUL, each document's source and strings
// in range, and each source's documents the consecutive ones naming it.
// A document's strings are not parsed here (that was a fifth of loading
// 10,000 topics): they are read with dec, which never reads outside
// them, whatever they hold.
func (s *segment) valid() bool {
	prev := ""
	docs := uint64(0)
	for i := range s.srcs.n {
		r := s.srcs.rec(i, srcRecLen)
		off, n := uint64(le32(r, 32)), uint64(le32(r, 36))
		first, count := uint64(le32(r, 40)), uint64(le32(r, 44))
		if off+n >= uint64(len(s.srcs.blob)) || s.srcs.blob[off+n] != 0 ||
			r[48] != srcTopic && r[48] != srcLog || r[49] > 1 || first+count > uint64(s.docs.n) {
			return false
		}
		// The index is no more trusted than the directory it sits in: a
		// path must stay inside the memory directory, or the freshness
		// check would stat what it names elsewhere.
		p := s.srcPath(i)
		odd := p == "" || p[0] == '/' || p[0] == '\\' || strings.Contains(p, "..") || strings.ContainsRune(p, ':')
		if i > 0 && p <= prev || odd && !filepath.IsLocal(filepath.FromSlash(p)) || strings.IndexByte(p, 0) >= 0 {
			return false // a NUL would end the path the system call sees early
		}
		prev = p
		docs += count
	}
	// Each document lies in its own source's range (below), and the
	// ranges add up to the documents: so no range holds another source's.
	if docs != uint64(s.docs.n) {
		return false
	}
	for i := range s.docs.n {
		r := s.docs.rec(i, docRecLen)
		src, off, n := le32(r, 0), uint64(le32(r, 40)), uint64(le32(r, 44))
		if int(src) >= s.srcs.n || off+n > uint64(len(s.docs.blob)) || r[4] > byte(len(typesx.Types)) || r[5] > 1 || r[6] > 1 {
			return false
		}
		if first, count := s.srcDocs(int(src)); i < first || i >= first+count {
			return false
		}

	}
	return true
}

func decodeTable(d *dec) table {
	n := d.count(4)
	offs := d.bytes(4 * n)
	blob := d.bytes(d.count(1))
	return table{offs: offs, blob: blob, n: n}
}

// typeByte and typeOf store a content type in one byte: 0 for none.
func typeByte(t typesx.Type) byte {
	if !t.Valid() {
		return 0
	}
	return byte(t.Rank() + 1)
}

func typeOf(b byte) typesx.Type {
	if b == 0 || int(b) > len(typesx.Types) {
		return ""
	}
	return typesx.Types[b-1]
}

func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }
