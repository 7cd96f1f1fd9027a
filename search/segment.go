package search

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"sort"

	"github.com/memdir/memdir/typesx"
)

// The index file: magic, format version, CRC-32C of the body, body.
// formatVersion changes whenever the format or the tokenizer changes, so
// an index written by another memdir is rebuilt, never misread (2: a topic
// whose broken frontmatter says private is private).
const (
	magic         = "MDSEARCH"
	formatVersion = 2
	headerLen     = len(magic) + 8
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

// doc is one searchable memory: a topic, or a daily-log entry.
type doc struct {
	src      uint32 // index in the segment's sources
	typ      typesx.Type
	private  bool
	name     string
	expires  string
	modified int64 // unix seconds
	tags     []string
	lens     [numFields]uint32
	// Log entries: the 1-based entry number in its day file, its line,
	// its dailylog hash and its day.
	entry uint32
	line  uint32
	hash  string
	day   string
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
// removed.
type segment struct {
	id, baseID uint64
	dirs       []stamp
	sources    []source
	docs       []doc
	removed    []string
	dict       table // term -> postings
	surfaces   table // folded word -> term number in dict
	size       int
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

// decodeSegment reads an index file. Anything wrong with it (another
// format, a bad checksum, a truncated or garbage body) is errCorrupt.
func decodeSegment(data []byte) (*segment, error) {
	if len(data) < headerLen || string(data[:len(magic)]) != magic ||
		binary.LittleEndian.Uint32(data[len(magic):]) != formatVersion {
		return nil, errCorrupt
	}
	body := data[headerLen:]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(data[len(magic)+4:]) {
		return nil, errCorrupt
	}
	d := &dec{b: body}
	s := &segment{id: d.u64(), baseID: d.u64(), size: len(data)}
	s.dirs = make([]stamp, d.count(3))
	for i := range s.dirs {
		s.dirs[i] = stamp{path: d.str(), mtime: d.varint(), racy: d.byte1() == 1}
	}
	s.sources = make([]source, d.count(8))
	for i := range s.sources {
		s.sources[i] = decodeSource(d)
	}
	s.docs = make([]doc, d.count(10))
	for i := range s.docs {
		s.docs[i] = decodeDoc(d, len(s.sources))
	}
	s.removed = make([]string, d.count(1))
	for i := range s.removed {
		s.removed[i] = d.str()
	}
	s.dict = decodeTable(d)
	s.surfaces = decodeTable(d)
	if d.bad || d.off != len(body) {
		return nil, errCorrupt
	}
	return s, nil
}

func decodeSource(d *dec) source {
	s := source{path: d.str(), kind: d.byte1()}
	s.size = d.varint()
	s.mtime = d.varint()
	s.ctime = d.varint()
	s.ino = d.uvarint()
	s.racy = d.byte1() == 1
	if s.kind != srcTopic && s.kind != srcLog {
		d.bad = true
	}
	return s
}

func decodeDoc(d *dec, nsrc int) doc {
	x := doc{src: uint32(d.uvarint())}
	if int(x.src) >= nsrc {
		d.bad = true
	}
	x.typ = typeOf(d.byte1())
	x.private = d.byte1() == 1
	x.name, x.expires = d.str(), d.str()
	x.modified = d.varint()
	if n := d.count(1); n > 0 {
		x.tags = make([]string, n)
		for i := range x.tags {
			x.tags[i] = d.str()
		}
	}
	for f := range x.lens {
		x.lens[f] = uint32(d.uvarint())
	}
	x.entry, x.line = uint32(d.uvarint()), uint32(d.uvarint())
	x.hash, x.day = d.str(), d.str()
	return x
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
