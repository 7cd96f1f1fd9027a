package memgit

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Status knows a file is unchanged the way git does, from the index's
// stat data, rather than by reading and hashing it: an entry whose
// recorded lstat (times to the nanosecond, device, inode, owner, size,
// mode) still matches the file holds the file's hash. The racy-git rule
// guards the one hole: a file changed within the same clock tick as the
// index was written can keep its old stat data, so an entry whose mtime
// is not older than the index file's is re-hashed, and when memgit
// rewrites the index it smudges such entries (size 0) so that they stay
// re-hashed once the index is newer. At 10,000 topics this turns
// `memdir commit` from reading every file into one lstat per file.

// fileStat is the stat data an index entry records, in its 32-bit
// fields.
type fileStat struct {
	ctime, ctimeNs, mtime, mtimeNs uint32
	dev, ino, uid, gid, size       uint32
}

// size32 is a file size as the index records it (git's munge_st_size):
// the low 32 bits, or 2^31 for a non-empty multiple of 4 GiB, which must
// not pass for an empty file.
func size32(fi fs.FileInfo) uint32 {
	n := uint32(fi.Size())
	if n == 0 && fi.Size() != 0 {
		return 1 << 31
	}
	return n
}

// indexStamp is the index file's mtime: entries modified at or after it
// are racy. The zero stamp makes none racy (an index never read).
type indexStamp struct{ sec, nsec uint32 }

func stampOf(fi fs.FileInfo) indexStamp {
	return indexStamp{sec: uint32(fi.ModTime().Unix()), nsec: uint32(fi.ModTime().Nanosecond())}
}

// racy reports whether an entry's stat data cannot be trusted: its file
// was modified no earlier than the index was written.
func (s indexStamp) racy(st fileStat) bool {
	if s.sec == 0 {
		return false
	}
	return st.mtime > s.sec || st.mtime == s.sec && st.mtimeNs >= s.nsec
}

// cachedEntry is what the index knows of one path.
type cachedEntry struct {
	name         string
	stat         fileStat
	mode         filemode.FileMode
	hash         plumbing.Hash
	skipWorktree bool
	intentToAdd  bool
}

// statCache is the index's stage-0 entries under the memory directory,
// sorted by repository path as the index keeps them (a sorted slice: a
// map of 10,000 entries cost more to build than the lookups it saved).
type statCache struct {
	entries []cachedEntry
	stamp   indexStamp
}

// find returns the entry of repository path p.
func (c statCache) find(p string) (*cachedEntry, bool) {
	i, ok := slices.BinarySearchFunc(c.entries, p, func(e cachedEntry, p string) int { return strings.Compare(e.name, p) })
	if !ok {
		return nil, false
	}
	return &c.entries[i], true
}

// emptyBlob is the hash of the empty blob, the only content a smudged
// (size 0) entry can be trusted to hold.
var emptyBlob = plumbing.NewHash("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")

// lookup returns the blob of a file whose index entry is e (nil: none)
// and whose lstat is fi, when the index proves it unchanged.
func (c statCache) lookup(e *cachedEntry, fi fs.FileInfo) (blob, bool) {
	if e == nil || e.intentToAdd || e.mode != fileMode(fi) {
		return blob{}, false
	}
	if !sameStat(e.stat, statOf(fi)) || c.stamp.racy(e.stat) || e.stat.size == 0 && e.hash != emptyBlob {
		return blob{}, false
	}
	return blob{hash: e.hash, mode: e.mode}, true
}

// fileMode is the git mode of a file or symlink; 0 for anything else.
func fileMode(fi fs.FileInfo) filemode.FileMode {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return filemode.Symlink
	case fi.Mode().IsRegular():
		return regularMode(fi)
	}
	return 0
}

// readStatCache reads the index entries under the memory directory. An
// index it cannot read (missing, split, damaged) gives an empty cache:
// every file is then hashed, which is slower but as correct.
func (r *Repo) readStatCache() statCache {
	c := statCache{}
	f, err := os.Open(filepath.Join(r.gitDir, "index"))
	if err != nil {
		return c
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return c
	}
	data := make([]byte, fi.Size())
	if _, err := f.ReadAt(data, 0); err != nil || len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return c
	}
	prefix := ""
	if r.prefix != "" {
		prefix = r.prefix + "/"
	}
	if binary.BigEndian.Uint32(data[4:8]) == 4 {
		c.fromDecoded(data, prefix)
	} else {
		c.fromRaw(data, prefix)
	}
	c.stamp = stampOf(fi)
	return c
}

// fromRaw reads the entries of a version 2 or 3 index.
func (c *statCache) fromRaw(data []byte, prefix string) {
	if len(data) < 12+20 {
		return
	}
	body := data[:len(data)-20]
	count := int(binary.BigEndian.Uint32(data[8:12]))
	c.entries = make([]cachedEntry, 0, min(count, len(body)/entryFixed)) // the count is the file's word
	for i, off := 0, 12; i < count; i++ {
		name, stage, n, err := nextIndexEntry(body[off:])
		if err != nil {
			c.entries = nil
			return
		}
		if stage == 0 && bytes.HasPrefix(name, []byte(prefix)) {
			b := body[off:]
			flags := rawEntryFlags(b)
			c.entries = append(c.entries, cachedEntry{
				name:         string(name),
				stat:         rawEntryStat(b),
				mode:         filemode.FileMode(binary.BigEndian.Uint32(b[24:28])),
				hash:         plumbing.Hash(b[40:60]),
				skipWorktree: flags&flagSkipWorktree != 0,
				intentToAdd:  flags&flagIntentToAdd != 0,
			})
		}
		off += n
	}
}

// fromDecoded reads the entries of a version 4 index through go-git.
func (c *statCache) fromDecoded(data []byte, prefix string) {
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return
	}
	for _, e := range idx.Entries {
		if e.Stage != 0 || !strings.HasPrefix(e.Name, prefix) {
			continue
		}
		c.entries = append(c.entries, cachedEntry{
			name: e.Name,
			stat: fileStat{
				ctime: uint32(e.CreatedAt.Unix()), ctimeNs: uint32(e.CreatedAt.Nanosecond()),
				mtime: uint32(e.ModifiedAt.Unix()), mtimeNs: uint32(e.ModifiedAt.Nanosecond()),
				dev: e.Dev, ino: e.Inode, uid: e.UID, gid: e.GID, size: e.Size,
			},
			mode: e.Mode, hash: e.Hash, skipWorktree: e.SkipWorktree, intentToAdd: e.IntentToAdd,
		})
	}
}
