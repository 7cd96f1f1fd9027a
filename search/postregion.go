package search

import (
	"hash/crc32"
	"io"
	"os"
	"sync/atomic"
)

// postRegion is where a segment's postings lie. A long-lived index (Live,
// a merge) holds them in memory, checked against their checksum; a
// one-shot search keeps the index file open and reads only the postings
// of its query's terms (at 10,000 topics the postings are 2.4 of the
// file's 4.3 MB, and on this project's VM every page read into memory is
// a page fault a short process pays for). A list read that way is not
// checked against the region's checksum but against its own (in the
// dictionary): one that does not match sets damaged, and the search that
// read it rebuilds the index from the files and runs again. Any merge
// reads the region whole and checks it first.
type postRegion struct {
	data []byte   // the region, when in memory
	f    *os.File // else the index file, open since the body was read
	off  int64    // where the region starts in f
	n    int64    // the region's length
	crc  uint32   // its CRC-32C, from the header

	damaged atomic.Bool // a list read did not match its checksum
}

// bytes is the region's n bytes at off (within the region's bounds,
// which the caller checked); nil when they cannot be read.
func (r *postRegion) bytes(off, n int64) []byte {
	if r.data != nil || r.f == nil {
		if off+n > int64(len(r.data)) {
			return nil
		}
		return r.data[off : off+n]
	}
	b := make([]byte, n)
	if _, err := r.f.ReadAt(b, r.off+off); err != nil && !(err == io.EOF && n == 0) {
		return nil
	}
	return b
}

// load reads the whole region into memory, checks it against its
// checksum and closes the file: errCorrupt when it does not match.
func (r *postRegion) load() error {
	if r.f == nil {
		return nil
	}
	b := make([]byte, r.n)
	_, err := r.f.ReadAt(b, r.off)
	r.close()
	if err != nil && !(err == io.EOF && r.n == 0) || crc32.Checksum(b, castagnoli()) != r.crc {
		return errCorrupt
	}
	r.data = b
	return nil
}

// close lets the index file go; the region reads as empty unless it was
// loaded.
func (r *postRegion) close() {
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
}
