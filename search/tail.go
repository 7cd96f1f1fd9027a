package search

import (
	"hash/crc32"
	"io"
	"os"
	"sync/atomic"
)

// tail is what follows an index file's body: the topics' metadata (meta,
// which Topics reads) and the postings. A long-lived index (Live, a
// merge) holds both in memory, checked against their checksums; a
// one-shot search keeps the file open and reads only the postings of its
// query's terms (at 10,000 topics the postings are 2.4 of the file's
// 4.3 MB, and on this project's VM every page read into memory is a page
// fault a short process pays for). A postings list read that way is
// checked against its own checksum (in the dictionary): one that does not
// match sets damaged, and the search that read it rebuilds the index from
// the files and runs again.
type tail struct {
	f    *os.File // the index file, open since the body was read; nil once let go
	meta region
	post region

	damaged atomic.Bool // a postings list read did not match its checksum
}

// region is one part of the tail: where it lies in the file, its length
// and CRC-32C (from the header), and its bytes once read.
type region struct {
	off  int64
	n    int64
	crc  uint32
	data []byte
}

// postBytes is the postings region's n bytes at off (within the region's
// bounds, which the caller checked); nil when they cannot be read.
func (t *tail) postBytes(off, n int64) []byte {
	if t.post.data != nil || t.f == nil {
		if off+n > int64(len(t.post.data)) {
			return nil
		}
		return t.post.data[off : off+n]
	}
	b := make([]byte, n)
	if _, err := t.f.ReadAt(b, t.post.off+off); err != nil && !(err == io.EOF && n == 0) {
		return nil
	}
	return b
}

// load reads a region whole and checks it against its checksum: errCorrupt
// when it does not match or can no longer be read.
func (t *tail) load(s *region) error {
	if s.data != nil || s.n == 0 && s.crc == 0 {
		return nil
	}
	if t.f == nil {
		return errCorrupt
	}
	b := make([]byte, s.n)
	if _, err := t.f.ReadAt(b, s.off); err != nil && !(err == io.EOF && s.n == 0) || crc32.Checksum(b, castagnoli()) != s.crc {
		return errCorrupt
	}
	s.data = b
	return nil
}

// hold reads both regions into memory and lets the file go.
func (t *tail) hold() error {
	err := t.load(&t.meta)
	if err == nil {
		err = t.load(&t.post)
	}
	t.close()
	return err
}

// close lets the index file go; what was not read reads as empty.
func (t *tail) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}
