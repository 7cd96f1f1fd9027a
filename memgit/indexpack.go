package memgit

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// A pack's index needs every object's hash, and a delta's hash needs the
// object resolved. go-git's packfile.Parser resolves them keeping every
// object it has resolved in memory: indexing the recent pack of a year
// at 10,000 topics took 1.2 GB. indexPack streams the pack twice with
// go-git's Scanner instead: the first pass counts how many deltas each
// object is the base of, the second resolves the objects in pack order
// (a delta's base comes before it) keeping an object only while deltas
// to come still need it. The index itself is go-git's idxfile.Writer.

// packEntry is what the first pass learns of one object.
type packEntry struct {
	offset, base int64 // base: the offset of a delta's base, or -1
	typ          plumbing.ObjectType
	crc          uint32
}

// errRefDelta: a delta naming its base by hash, which memgit's packs
// (written with offset deltas) never hold.
var errRefDelta = errors.New("reference delta")

// indexPack builds the index of the pack f reads.
func indexPack(f io.ReadSeeker) (*idxfile.MemoryIndex, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	entries, sum, err := scanPack(f)
	if err != nil {
		return nil, err
	}
	children := map[int64]int{}
	for _, e := range entries {
		if e.base >= 0 {
			children[e.base]++
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	s := packfile.NewScanner(f)
	if _, _, err := s.Header(); err != nil {
		return nil, err
	}
	w := new(idxfile.Writer)
	w.OnHeader(uint32(len(entries)))
	type kept struct {
		typ  plumbing.ObjectType
		data []byte
	}
	bases := map[int64]kept{}
	var buf bytes.Buffer
	for _, e := range entries {
		if _, err := s.NextObjectHeader(); err != nil {
			return nil, err
		}
		buf.Reset()
		if _, _, err := s.NextObject(&buf); err != nil {
			return nil, err
		}
		typ, data := e.typ, buf.Bytes()
		if e.base >= 0 {
			base, ok := bases[e.base]
			if !ok {
				return nil, fmt.Errorf("delta at %d: no base at %d", e.offset, e.base)
			}
			typ = base.typ
			if data, err = packfile.PatchDelta(base.data, data); err != nil {
				return nil, fmt.Errorf("delta at %d: %w", e.offset, err)
			}
			if children[e.base]--; children[e.base] == 0 {
				delete(bases, e.base)
			}
		}
		if children[e.offset] > 0 {
			bases[e.offset] = kept{typ: typ, data: bytes.Clone(data)}
		}
		w.Add(objectHash(typ, len(data), [][]byte{data}), uint64(e.offset), e.crc)
	}
	if err := w.OnFooter(sum); err != nil {
		return nil, err
	}
	return w.Index()
}

// scanPack is the first pass: every object's place, kind and checksum,
// and the pack's own checksum.
func scanPack(f io.Reader) ([]packEntry, plumbing.Hash, error) {
	s := packfile.NewScanner(f)
	_, count, err := s.Header()
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	entries := make([]packEntry, 0, count)
	for range count {
		h, err := s.NextObjectHeader()
		if err != nil {
			return nil, plumbing.ZeroHash, err
		}
		e := packEntry{offset: h.Offset, base: -1, typ: h.Type}
		switch h.Type {
		case plumbing.OFSDeltaObject:
			e.base = h.OffsetReference
		case plumbing.REFDeltaObject:
			return nil, plumbing.ZeroHash, errRefDelta
		}
		if _, e.crc, err = s.NextObject(io.Discard); err != nil {
			return nil, plumbing.ZeroHash, err
		}
		entries = append(entries, e)
	}
	sum, err := s.Checksum()
	return entries, sum, err
}
