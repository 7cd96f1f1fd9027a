package memgit

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Git's index, version 2 or 3, is spliced as bytes rather than decoded:
// a commit replaces a handful of entries, so the entries are scanned for
// their bounds without allocating, and the new index is streamed into
// index.lock as runs of the old one's bytes with the new entries between
// them (go-git's codec takes ten times as long on a 10,000-entry index,
// and parsing every entry into a string and sorting them again cost more
// than the rest of the commit). Version 4 (prefix-compressed names) goes
// through go-git's codec instead.

const (
	entryFixed   = 62     // ctime, mtime, dev, ino, mode, uid, gid, size, sha, flags
	flagExtended = 0x4000 // an extra 16 bits of flags follow (version 3)
	flagNameMask = 0xfff

	// Bits of the extra flags of version 3.
	flagSkipWorktree = 0x4000 // outside a sparse checkout: not in the work tree
	flagIntentToAdd  = 0x2000 // git add -N: no content recorded yet
)

var (
	// errIndexV4 sends a version 4 index to go-git's codec.
	errIndexV4 = errors.New("index version 4")
	// errTruncated is an index entry cut short.
	errTruncated = errors.New("read the git index: truncated entry")
)

// gitIndex is this work tree's index as read: the bytes of a version 2
// or 3 index with where the entries of the paths being committed are, or
// go-git's decoding of a version 4 one.
type gitIndex struct {
	version uint32
	data    []byte // the index file, or a header of an empty one
	end     int    // where the entries end and the extensions begin
	count   int    // entries
	want    []string
	spans   []span // where the entries of each of want are
	conf    []string
	skipped []string   // wanted paths marked skip-worktree (outside a sparse checkout)
	stamp   indexStamp // the index file's mtime when read
	racy    []int      // where the entries racy against stamp are
	v4      *index.Index
}

// span is where the entries of one path are in an index, or where they
// would go: n entries from start to end.
type span struct{ start, end, n int }

// emptyIndex is the header of an index with no entries.
func emptyIndex(want []string) *gitIndex {
	data := append([]byte("DIRC"), 0, 0, 0, 2, 0, 0, 0, 0)
	ix := &gitIndex{version: 2, data: data, end: len(data), want: want, spans: make([]span, len(want))}
	for j := range ix.spans {
		ix.spans[j] = span{start: len(data), end: len(data)}
	}
	return ix
}

// conflicts lists the paths among want that have unmerged entries
// (stage 1 to 3).
func (ix *gitIndex) conflicts(want map[string]bool) []string {
	if ix.v4 == nil {
		return ix.conf
	}
	var out []string
	for _, e := range ix.v4.Entries {
		if e.Stage != 0 && want[e.Name] && !slices.Contains(out, e.Name) {
			out = append(out, e.Name)
		}
	}
	return out
}

// write writes the index with the entries of the given paths (those
// given to parseIndex) replaced by what was committed and every other
// entry copied byte for byte, streaming rather than building the new
// index in memory. Extensions are dropped: the cache tree would be
// stale, the others are caches git rebuilds.
func (ix *gitIndex) write(w io.Writer, files map[string]staged) error {
	if ix.v4 != nil {
		updateIndex(ix.v4, files)
		var buf bytes.Buffer
		if err := index.NewEncoder(&buf).Encode(ix.v4); err != nil {
			return fmt.Errorf("encode the git index: %w", err)
		}
		_, err := w.Write(buf.Bytes())
		return err
	}
	count := ix.count
	for j, name := range ix.want {
		if f, ok := files[name]; ok {
			count -= ix.spans[j].n
			if f.info != nil {
				count++
			}
		}
	}
	// An entry racily clean against the old index (changed in the same
	// tick as it was written) would look clean for good once the index
	// is newer, so its size is smudged to 0, as git's
	// ce_smudge_racily_clean_entry does: git re-reads it next time.
	for _, off := range ix.racy {
		clear(ix.data[off+36 : off+40])
	}
	sum := sha1.New()
	bw := bufio.NewWriterSize(w, 32<<10)
	out := io.MultiWriter(bw, sum)
	header := binary.BigEndian.AppendUint32(slices.Clone(ix.data[:8]), uint32(count))
	out.Write(header)
	prev := 12
	var entry []byte
	for j, name := range ix.want {
		f, ok := files[name]
		if !ok {
			continue
		}
		sp := ix.spans[j]
		out.Write(ix.data[prev:sp.start])
		if f.info != nil {
			entry = appendEntry(entry[:0], name, f)
			out.Write(entry)
		}
		prev = sp.end
	}
	out.Write(ix.data[prev:ix.end])
	bw.Write(sum.Sum(nil))
	return bw.Flush()
}

// parseIndex checks a version 2 or 3 index (the bounds and order of its
// entries, no extension it cannot keep) and finds where the entries of
// the paths in want (sorted) are, scanning the entries without decoding
// them. stamp is the index file's mtime, against which entries are racy
// (zero: none is). A split or sparse index is refused, with why, before
// its entries are parsed; a version 4 index gives errIndexV4.
func parseIndex(data []byte, want []string, stamp indexStamp) (*gitIndex, error) {
	if len(data) < 12+sha1.Size || string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("read the git index: not an index file")
	}
	// The checksum is not verified, as git verifies it only in git fsck:
	// hashing a big index costs more than the rest of reading it, and
	// the scan below checks every entry's bounds and order.
	body := data[:len(data)-sha1.Size]
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, &RefusedError{Reason: fmt.Sprintf("the git index has version %d, which memdir does not know", version)}
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	end, err := entriesEnd(body, version, count)
	if err != nil {
		return nil, err
	}
	if err := checkExtensions(body, end); err != nil {
		return nil, err
	}
	if version == 4 {
		return nil, errIndexV4
	}
	ix := &gitIndex{version: version, data: data, count: count, want: want, stamp: stamp}
	if ix.end, err = ix.locate(body); err != nil {
		return nil, err
	}
	return ix, nil
}

// entriesEnd finds where the entries end by their lengths alone, in any
// version, without checking their names or order: a split index's
// entries are out of order and may have no names, and the extensions
// after them are what says so.
func entriesEnd(body []byte, version uint32, count int) (int, error) {
	off := 12
	for range count {
		if version != 4 {
			_, _, n, err := nextIndexEntry(body[off:])
			if err != nil {
				return 0, err
			}
			off += n
			continue
		}
		head := entryFixed
		if len(body)-off >= entryFixed && binary.BigEndian.Uint16(body[off+60:off+62])&flagExtended != 0 {
			head += 2
		}
		if len(body)-off < head {
			return 0, errTruncated
		}
		off += head
		for off < len(body) && body[off]&0x80 != 0 { // the varint of bytes to strip
			off++
		}
		nul := bytes.IndexByte(body[min(off+1, len(body)):], 0)
		if nul < 0 {
			return 0, errTruncated
		}
		off += 1 + nul + 1
	}
	return off, nil
}

// checkExtensions reads the extensions after the entries and refuses an
// index memgit cannot write back faithfully. Optional extensions (an
// upper-case signature: the cache tree, the untracked cache...) are
// caches git rebuilds and are dropped on write.
func checkExtensions(body []byte, end int) error {
	for off := end; off+8 <= len(body); {
		sig := string(body[off : off+4])
		size := int(binary.BigEndian.Uint32(body[off+4 : off+8]))
		switch {
		case sig == "link":
			return &RefusedError{Reason: "the git index is split (core.splitIndex, or git update-index --split-index): " +
				"most of its entries live in a shared index file that memdir does not rewrite, so a commit could lose them; " +
				"run git update-index --no-split-index, or commit memory with git"}
		case sig == "sdir":
			return &RefusedError{Reason: "the git index is sparse (index.sparse, or git sparse-checkout set --sparse-index): " +
				"it stands for whole directories with single entries, which memdir cannot update; " +
				"run git sparse-checkout set --no-sparse-index, or commit memory with git"}
		case sig[0] < 'A' || sig[0] > 'Z':
			return &RefusedError{Reason: fmt.Sprintf("the git index uses the %q extension, which memdir does not know and git says must not be dropped; commit memory with git", sig)}
		}
		off += 8 + size
	}
	return nil
}

// locate walks the entries, checking they are in git's order (by name,
// then stage), notes the span of each wanted path and its conflicts, and
// returns where the entries end.
func (ix *gitIndex) locate(body []byte) (int, error) {
	ix.spans = make([]span, len(ix.want))
	found := make([]bool, len(ix.want))
	var prev []byte
	prevStage, j, off := -1, 0, 12
	for i := range ix.count {
		name, stage, n, err := nextIndexEntry(body[off:])
		if err != nil {
			return 0, err
		}
		if c := bytes.Compare(prev, name); i > 0 && (c > 0 || c == 0 && prevStage >= stage) {
			return 0, fmt.Errorf("read the git index: entries out of order at %q", name)
		}
		for ; j < len(ix.want) && ix.want[j] < string(name); j++ {
			if !found[j] {
				ix.spans[j] = span{start: off, end: off}
			}
		}
		if j < len(ix.want) && ix.want[j] == string(name) {
			if !found[j] {
				found[j], ix.spans[j] = true, span{start: off}
			}
			ix.spans[j].end, ix.spans[j].n = off+n, ix.spans[j].n+1
			if stage != 0 && !slices.Contains(ix.conf, ix.want[j]) {
				ix.conf = append(ix.conf, ix.want[j])
			}
			if rawEntryFlags(body[off:])&flagSkipWorktree != 0 {
				ix.skipped = append(ix.skipped, ix.want[j])
			}
		}
		if ix.stamp.racy(rawEntryStat(body[off:])) {
			ix.racy = append(ix.racy, off)
		}
		prev, prevStage = name, stage
		off += n
	}
	for ; j < len(ix.want); j++ {
		if !found[j] {
			ix.spans[j] = span{start: off, end: off}
		}
	}
	return off, nil
}

// nextIndexEntry reads the entry at the start of b: its name, stage and
// length.
func nextIndexEntry(b []byte) ([]byte, int, int, error) {
	if len(b) < entryFixed {
		return nil, 0, 0, errTruncated
	}
	flags := binary.BigEndian.Uint16(b[60:62])
	head := entryFixed
	if flags&flagExtended != 0 {
		head += 2
	}
	nameLen := int(flags & flagNameMask)
	if nameLen == flagNameMask {
		nameLen = bytes.IndexByte(b[min(head, len(b)):], 0)
	}
	if nameLen < 0 || head+nameLen > len(b) {
		return nil, 0, 0, errTruncated
	}
	n := (head + nameLen + 8) &^ 7
	if n > len(b) {
		return nil, 0, 0, errTruncated
	}
	return b[head : head+nameLen], int(flags>>12) & 3, n, nil
}

// entrySize is the length of a version 2 entry for name.
func entrySize(name string) int { return (entryFixed + len(name) + 8) &^ 7 }

// appendEntry appends the index entry of a committed file, with the
// stat data git compares.
func appendEntry(out []byte, name string, f staged) []byte {
	st := statOf(f.info)
	be := binary.BigEndian
	for _, v := range []uint32{st.ctime, st.ctimeNs, st.mtime, st.mtimeNs, st.dev, st.ino, uint32(f.mode), st.uid, st.gid, st.size} {
		out = be.AppendUint32(out, v)
	}
	out = append(out, f.hash[:]...)
	out = be.AppendUint16(out, uint16(min(len(name), flagNameMask)))
	out = append(out, name...)
	var zeros [8]byte
	return append(out, zeros[:entrySize(name)-entryFixed-len(name)]...)
}

// rawEntryStat reads the stat data of the entry at the start of b (as
// checked by nextIndexEntry).
func rawEntryStat(b []byte) fileStat {
	be := binary.BigEndian
	return fileStat{
		ctime: be.Uint32(b[0:]), ctimeNs: be.Uint32(b[4:]), mtime: be.Uint32(b[8:]), mtimeNs: be.Uint32(b[12:]),
		dev: be.Uint32(b[16:]), ino: be.Uint32(b[20:]), uid: be.Uint32(b[28:]), gid: be.Uint32(b[32:]), size: be.Uint32(b[36:]),
	}
}

// rawEntryFlags reads the extra flags of a version 3 entry at the start
// of b, or 0.
func rawEntryFlags(b []byte) uint16 {
	if binary.BigEndian.Uint16(b[60:62])&flagExtended == 0 {
		return 0
	}
	return binary.BigEndian.Uint16(b[62:64])
}
