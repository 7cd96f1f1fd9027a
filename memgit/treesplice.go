package memgit

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A commit changes a few names in each tree along the changed paths. The
// rest of a tree (10,000 entries in the root of a big memory directory)
// is copied through as bytes: the records are scanned for their
// boundaries without allocating, and the changed ones are cut out and
// the new ones spliced in at their place in git's order. Parsing every
// entry into a string and serializing it again cost more than the rest
// of the commit.

var errBadTree = errors.New("malformed tree object")

// treeRecord is one "<octal mode> <name>\x00<20-byte hash>" record of a
// tree object's content, pointing into it.
type treeRecord struct {
	name []byte
	mode filemode.FileMode
	hash []byte
	size int // the bytes the record takes
}

func (rec treeRecord) dir() bool { return rec.mode == filemode.Dir }

// nextTreeRecord reads the record at the start of b.
func nextTreeRecord(b []byte) (treeRecord, error) {
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 {
		return treeRecord{}, errBadTree
	}
	var mode uint64
	for _, c := range b[:sp] {
		if c < '0' || c > '7' {
			return treeRecord{}, errBadTree
		}
		if mode = mode<<3 | uint64(c-'0'); mode > math.MaxUint32 {
			return treeRecord{}, errBadTree
		}
	}
	nul := bytes.IndexByte(b[sp+1:], 0) + sp + 1
	if nul <= sp || nul+1+20 > len(b) {
		return treeRecord{}, errBadTree
	}
	return treeRecord{name: b[sp+1 : nul], mode: filemode.FileMode(mode), hash: b[nul+1 : nul+21], size: nul + 21}, nil
}

// treeOrder compares two names in git's tree order: bytewise, a
// directory as if its name ended in "/".
func treeOrder(a []byte, aDir bool, b []byte, bDir bool) int {
	n := min(len(a), len(b))
	if c := bytes.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	next := func(name []byte, dir bool) int {
		switch {
		case len(name) > n:
			return int(name[n])
		case dir:
			return '/'
		}
		return 0
	}
	return next(a, aDir) - next(b, bDir)
}

// treeChange is what becomes of one name in a tree: any entry of that
// name is removed, and unless mode is zero the entry given takes its
// place.
type treeChange struct {
	name []byte
	mode filemode.FileMode
	hash plumbing.Hash
}

func (c treeChange) dir() bool { return c.mode == filemode.Dir }

// findTreeEntry returns the entry of a tree called name, if there is one.
func findTreeEntry(data []byte, name string) (treeRecord, bool, error) {
	key := []byte(name)
	for off := 0; off < len(data); {
		rec, err := nextTreeRecord(data[off:])
		if err != nil {
			return treeRecord{}, false, err
		}
		if bytes.Equal(rec.name, key) {
			return rec, true, nil
		}
		if treeOrder(rec.name, rec.dir(), key, true) > 0 {
			break // past both places the name could be
		}
		off += rec.size
	}
	return treeRecord{}, false, nil
}

// spliceTree returns the content of a tree with changes applied (their
// names must differ), as parts to be written one after the other: runs
// of the records of data, copied byte for byte, and the new records. The
// records must be in git's order, as git writes them, or it fails with
// errBadTree.
func spliceTree(data []byte, changes []treeChange) ([][]byte, error) {
	var adds []treeChange
	type drop struct {
		name []byte
		dir  bool
	}
	drops := make([]drop, 0, 2*len(changes))
	for _, c := range changes {
		drops = append(drops, drop{c.name, false}, drop{c.name, true})
		if c.mode != 0 {
			adds = append(adds, c)
		}
	}
	slices.SortFunc(adds, func(a, b treeChange) int { return treeOrder(a.name, a.dir(), b.name, b.dir()) })
	slices.SortFunc(drops, func(a, b drop) int { return treeOrder(a.name, a.dir, b.name, b.dir) })
	parts := make([][]byte, 0, 2*len(changes)+1)
	cut := func(from, to int) {
		if to > from {
			parts = append(parts, data[from:to])
		}
	}
	var prev treeRecord
	run := 0 // the start of the records not yet in parts
	for off := 0; off < len(data); {
		rec, err := nextTreeRecord(data[off:])
		if err != nil {
			return nil, err
		}
		if off > 0 && treeOrder(prev.name, prev.dir(), rec.name, rec.dir()) >= 0 {
			return nil, errBadTree
		}
		for len(adds) > 0 && treeOrder(adds[0].name, adds[0].dir(), rec.name, rec.dir()) < 0 {
			cut(run, off)
			parts = append(parts, appendTreeRecord(nil, adds[0]))
			run, adds = off, adds[1:]
		}
		for len(drops) > 0 && treeOrder(drops[0].name, drops[0].dir, rec.name, rec.dir()) < 0 {
			drops = drops[1:]
		}
		if len(drops) > 0 && drops[0].dir == rec.dir() && bytes.Equal(drops[0].name, rec.name) {
			cut(run, off)
			run = off + rec.size
		}
		prev = rec
		off += rec.size
	}
	cut(run, len(data))
	for _, c := range adds {
		parts = append(parts, appendTreeRecord(nil, c))
	}
	return parts, nil
}

func appendTreeRecord(out []byte, c treeChange) []byte {
	out = strconv.AppendUint(out, uint64(c.mode), 8)
	out = append(out, ' ')
	out = append(out, c.name...)
	out = append(out, 0)
	return append(out, c.hash[:]...)
}

// sameBytes reports whether parts hold data.
func sameBytes(parts [][]byte, data []byte) bool {
	for _, p := range parts {
		if !bytes.HasPrefix(data, p) {
			return false
		}
		data = data[len(p):]
	}
	return len(data) == 0
}
