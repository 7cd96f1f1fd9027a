package memgit

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Git's index, version 2 or 3, is spliced as bytes rather than decoded:
// a commit replaces a handful of entries, and copying the others through
// untouched keeps the cost of a 10,000-entry index at a millisecond or
// two (go-git's codec takes ten times that). Version 4 (prefix-compressed
// names) goes through go-git's codec instead.

const (
	entryFixed   = 62     // ctime, mtime, dev, ino, mode, uid, gid, size, sha, flags
	flagExtended = 0x4000 // an extra 16 bits of flags follow (version 3)
	flagNameMask = 0xfff
)

// errIndexV4 sends a version 4 index to go-git's codec.
var errIndexV4 = errors.New("index version 4")

// rawEntry is one entry of an index: its bytes and what sorts it.
type rawEntry struct {
	name  string
	stage int
	data  []byte
}

// gitIndex is this work tree's index as read: raw entries of a version 2
// or 3 index, or go-git's decoding of a version 4 one.
type gitIndex struct {
	version uint32
	entries []rawEntry
	v4      *index.Index
}

// conflicts lists the paths among want that have unmerged entries
// (stage 1 to 3).
func (ix *gitIndex) conflicts(want map[string]bool) []string {
	var out []string
	if ix.v4 != nil {
		for _, e := range ix.v4.Entries {
			if e.Stage != 0 && want[e.Name] && !slices.Contains(out, e.Name) {
				out = append(out, e.Name)
			}
		}
		return out
	}
	for _, e := range ix.entries {
		if e.stage != 0 && want[e.name] && !slices.Contains(out, e.name) {
			out = append(out, e.name)
		}
	}
	return out
}

// bytes renders the index with the entries of the given paths replaced
// by what was committed and every other entry copied as it was.
// Extensions are dropped: the cache tree would be stale, the others are
// caches git rebuilds.
func (ix *gitIndex) bytes(files map[string]staged) ([]byte, error) {
	if ix.v4 != nil {
		updateIndex(ix.v4, files)
		var buf bytes.Buffer
		if err := index.NewEncoder(&buf).Encode(ix.v4); err != nil {
			return nil, fmt.Errorf("encode the git index: %w", err)
		}
		return buf.Bytes(), nil
	}
	kept := make([]rawEntry, 0, len(ix.entries)+len(files))
	for _, e := range ix.entries {
		if _, ok := files[e.name]; !ok {
			kept = append(kept, e)
		}
	}
	for name, f := range files {
		if f.info != nil {
			kept = append(kept, rawEntry{name: name, data: encodeEntry(name, f)})
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].name != kept[j].name {
			return kept[i].name < kept[j].name
		}
		return kept[i].stage < kept[j].stage
	})
	size := 12 + sha1.Size
	for _, e := range kept {
		size += len(e.data)
	}
	out := make([]byte, 12, size)
	copy(out, "DIRC")
	binary.BigEndian.PutUint32(out[4:], ix.version)
	binary.BigEndian.PutUint32(out[8:], uint32(len(kept)))
	for _, e := range kept {
		out = append(out, e.data...)
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...), nil
}

// parseIndex splits a version 2 or 3 index into its entries, checking
// its checksum and refusing required extensions.
func parseIndex(data []byte) (uint32, []rawEntry, error) {
	if len(data) < 12+sha1.Size || string(data[:4]) != "DIRC" {
		return 0, nil, fmt.Errorf("read the git index: not an index file")
	}
	body := data[:len(data)-sha1.Size]
	if sum := sha1.Sum(body); !bytes.Equal(sum[:], data[len(body):]) {
		return 0, nil, fmt.Errorf("read the git index: bad checksum")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version == 4 {
		return version, nil, errIndexV4
	}
	if version != 2 && version != 3 {
		return 0, nil, &RefusedError{Reason: fmt.Sprintf("the git index has version %d, which memdir does not know", version)}
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	entries := make([]rawEntry, 0, count)
	off := 12
	for range count {
		e, n, err := parseEntry(body[off:])
		if err != nil {
			return 0, nil, err
		}
		entries = append(entries, e)
		off += n
	}
	for off+8 <= len(body) {
		sig := body[off : off+4]
		size := int(binary.BigEndian.Uint32(body[off+4 : off+8]))
		if sig[0] < 'A' || sig[0] > 'Z' {
			return 0, nil, &RefusedError{Reason: fmt.Sprintf("the git index uses the %q extension (a split or sparse index), which memdir cannot keep; commit with git instead", sig)}
		}
		off += 8 + size
	}
	return version, entries, nil
}

// parseEntry reads one entry at the start of b and returns its length.
func parseEntry(b []byte) (rawEntry, int, error) {
	bad := fmt.Errorf("read the git index: truncated entry")
	if len(b) < entryFixed {
		return rawEntry{}, 0, bad
	}
	flags := binary.BigEndian.Uint16(b[60:62])
	head := entryFixed
	if flags&flagExtended != 0 {
		head += 2
	}
	nameLen := int(flags & flagNameMask)
	if nameLen == flagNameMask {
		nameLen = bytes.IndexByte(b[head:], 0)
	}
	if nameLen < 0 || head+nameLen > len(b) {
		return rawEntry{}, 0, bad
	}
	n := (head + nameLen + 8) &^ 7
	if n > len(b) {
		return rawEntry{}, 0, bad
	}
	return rawEntry{name: string(b[head : head+nameLen]), stage: int(flags>>12) & 3, data: b[:n]}, n, nil
}

// encodeEntry is the index entry of a committed file, with the stat data
// git compares.
func encodeEntry(name string, f staged) []byte {
	e := &index.Entry{ModifiedAt: f.info.ModTime()}
	fillStat(e, f.info)
	if e.CreatedAt.IsZero() {
		e.CreatedAt = e.ModifiedAt
	}
	size := uint32(0)
	if f.info.Size() < 1<<32 {
		size = uint32(f.info.Size())
	}
	n := (entryFixed + len(name) + 8) &^ 7
	b := make([]byte, n)
	be := binary.BigEndian
	be.PutUint32(b[0:], uint32(e.CreatedAt.Unix()))
	be.PutUint32(b[4:], uint32(e.CreatedAt.Nanosecond()))
	be.PutUint32(b[8:], uint32(e.ModifiedAt.Unix()))
	be.PutUint32(b[12:], uint32(e.ModifiedAt.Nanosecond()))
	be.PutUint32(b[16:], e.Dev)
	be.PutUint32(b[20:], e.Inode)
	be.PutUint32(b[24:], uint32(f.mode))
	be.PutUint32(b[28:], e.UID)
	be.PutUint32(b[32:], e.GID)
	be.PutUint32(b[36:], size)
	copy(b[40:60], f.hash[:])
	be.PutUint16(b[60:], uint16(min(len(name), flagNameMask)))
	copy(b[entryFixed:], name)
	return b
}
