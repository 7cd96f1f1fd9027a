package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/gofrs/flock"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/untrusted"
)

// Files under <memory dir>/.memdir/search/. memgit's ignore file keeps all
// of .memdir/ (but mode) out of git.
const (
	StateDir   = memdir.StateDir + "/search"
	baseFile   = "base.idx"
	deltaFile  = "delta.idx"
	lockFile   = "lock"
	recallFile = "recalls"
)

// compactAt is how many sources a delta may hold before it is folded
// into the base: small enough that rewriting it stays cheap, large enough
// that the base (all of memory) is rewritten rarely.
func compactAt(base int) int { return 64 + base/16 }

// current is the index as loaded and brought up to date.
type current struct {
	base, delta *segment
	scan        *scan
	rebuilt     bool // the base was built from the files just now
}

// refresh loads the index, compares it with the files and brings it up
// to date: changed files are read again and the result saved for the
// next process, when the lock is free. A missing, damaged or foreign
// index is rebuilt without a word. It never fails for the index's sake:
// what it cannot save it still answers from memory. The postings are
// read whole and checked (an index kept in memory: Live, the viewer).
func (ix *Index) refresh() (*current, error) { return ix.bringUp(true, false) }

// refreshOnce is refresh for one search: the postings stay in the index
// file, read term by term (tail), and the caller closes cur.
func (ix *Index) refreshOnce() (*current, error) { return ix.bringUp(false, false) }

// bringUp loads the index and brings it up to date; with dirsOnly, only
// a directory whose stamp moved has its files compared (see
// Query.DirsOnly).
func (ix *Index) bringUp(hold, dirsOnly bool) (*current, error) {
	base := ix.load(baseFile)
	var delta *segment
	if base != nil {
		if delta = ix.load(deltaFile); delta != nil && delta.baseID != base.id {
			delta.tail.close()
			delta = nil // written for an older base: the scan redoes it
		}
	}
	var sc *scan
	dirs := dirsOf(base, delta)
	if dirsOnly && base != nil && !dirsChanged(ix.dir.Path, dirs) {
		sc = &scan{dirs: dirs} // no file compared: the sources are not merged either
	} else {
		sc = scanFiles(ix.dir.Path, knownOf(base, delta), dirs)
	}
	cur := &current{base: base, delta: delta, scan: sc}
	var err error
	switch {
	case base == nil:
		cur.base, err = ix.rebuild(sc)
		cur.rebuilt = true
	case !sc.fresh() || sc.settled(dirs):
		cur.base, cur.delta, err = ix.update(base, delta, sc)
	}
	if err == nil && hold && !cur.hold() {
		cur.close()
		cur = &current{rebuilt: true}
		cur.base, err = ix.rebuild(nil)
	}
	return cur, err
}

// settled reports whether the scan listed the directories again and
// took stamps other than the index's, none of them racy, though no file
// changed (MEMORY.md rewritten, a note that is not memory): saved, they
// spare every later search the listing and a stat of every file, which
// at 10,000 topics tripled the time of a recall after every memdir add.
func (sc *scan) settled(dirs []stamp) bool {
	return !slices.Equal(sc.dirs, dirs) && !slices.ContainsFunc(sc.dirs, func(d stamp) bool { return d.racy })
}

// refreshPaths brings cur, an index held in memory, up to date with the
// files at paths (see scanPaths) alone, as refresh does for every file:
// what changed is read again and saved for the next process.
func (ix *Index) refreshPaths(cur *current, paths []string) (*current, error) {
	sc := scanPaths(ix.dir.Path, knownOf(cur.base, cur.delta), dirsOf(cur.base, cur.delta), paths)
	if sc.fresh() {
		return cur, nil
	}
	base, delta, err := ix.update(cur.base, cur.delta, sc)
	next := &current{base: base, delta: delta, scan: sc}
	if err == nil && !next.hold() {
		next.close()
		next = &current{rebuilt: true}
		next.base, err = ix.rebuild(nil)
	}
	return next, err
}

// rebuild builds a base from every file: those sc found (a scan made
// without an index, so every file is in sc.changed), else a new scan's.
func (ix *Index) rebuild(sc *scan) (*segment, error) {
	if sc == nil {
		sc = scanFiles(ix.dir.Path, nil, nil)
	}
	b := newBuilder(rand.Uint64(), 0)
	b.progress, b.total = ix.progress, len(sc.changed)
	ix.addFiles(b, sc, sc.changed)
	return ix.save(b, 0)
}

// hold reads the tails of cur's segments into memory and lets their
// files go; false when one does not match its checksum.
func (cur *current) hold() bool {
	ok := true
	for _, s := range []*segment{cur.base, cur.delta} {
		if s != nil && s.tail.hold() != nil {
			ok = false
		}
	}
	return ok
}

// damaged reports whether a postings list read from cur's segments did
// not match its checksum.
func (cur *current) damaged() bool {
	return cur != nil && (cur.base != nil && cur.base.tail.damaged.Load() || cur.delta != nil && cur.delta.tail.damaged.Load())
}

// close lets go of the index files cur's segments keep open.
func (cur *current) close() {
	if cur == nil {
		return
	}
	for _, s := range []*segment{cur.base, cur.delta} {
		if s != nil {
			s.tail.close()
		}
	}
}

// update folds the changes a scan found into a new delta, or into a new
// base when the delta grew past compactAt.
func (ix *Index) update(base, delta *segment, sc *scan) (*segment, *segment, error) {
	dead := map[string]bool{}
	for _, p := range append(sc.changed, sc.deleted...) {
		dead[p] = true
	}
	removed := map[string]bool{}
	if delta != nil {
		for _, p := range delta.removed {
			removed[p] = true
		}
	}
	for i := range base.nsrc() {
		if p := base.srcPath(i); dead[p] {
			removed[p] = true
		}
	}
	size := len(sc.changed)
	if delta != nil {
		size += delta.nsrc()
	}
	// A merge copies postings and metadata: they are read whole and
	// checked first, and what does not match its checksum is built again
	// from the files.
	if delta != nil && delta.tail.hold() != nil || size > compactAt(base.nsrc()) && base.tail.hold() != nil {
		base.tail.close()
		nb, err := ix.rebuild(nil)
		return nb, nil, err
	}
	if size > compactAt(base.nsrc()) {
		b := newBuilder(rand.Uint64(), 0)
		b.absorb(base, union(removed, dead))
		if delta != nil {
			b.absorb(delta, dead)
		}
		ix.addFiles(b, sc, sortKeys(sc.changed))
		nb, err := ix.save(b, 0)
		return nb, nil, err
	}
	b := newBuilder(rand.Uint64(), base.id)
	if delta != nil {
		b.absorb(delta, dead)
	}
	ix.addFiles(b, sc, sortKeys(sc.changed))
	b.removed = sortedKeys(removed)
	nd, err := ix.save(b, base.id)
	return base, nd, err
}

// addFiles reads and indexes the files at paths, as the scan stamped
// them (the stamp is taken before the read, so a change made meanwhile is
// seen next time). A file gone since the scan is left out.
func (ix *Index) addFiles(b *builder, sc *scan, paths []string) {
	srcs := make([]source, len(paths))
	for i, p := range paths {
		srcs[i], _ = sc.lookup(p)
	}
	for i, data := range readFiles(ix.dir.Path, srcs) {
		if data != nil {
			b.addFile(srcs[i], data)
		}
	}
	b.dirs = sc.dirs
}

// save encodes a builder's segment and writes it: a base when baseID is
// 0, else a delta for that base. It returns the segment to search.
func (ix *Index) save(b *builder, baseID uint64) (*segment, error) {
	data := b.encode()
	seg, err := decodeSegment(data)
	if err != nil {
		return nil, fmt.Errorf("search index: a segment just built does not read back: %w", err)
	}
	ix.persist(data, baseID)
	return seg, nil
}

// persist writes an index file when the search lock is free: another
// process holding it is writing the same changes. A delta is written
// only over the base it was built for.
func (ix *Index) persist(data []byte, baseID uint64) {
	if !ix.dir.Exists() {
		return
	}
	dir, fl, err := ix.lockState()
	if err != nil {
		return
	}
	if ok, err := fl.TryLock(); !ok || err != nil {
		return
	}
	defer fl.Unlock()
	name := deltaFile
	if baseID == 0 {
		name = baseFile
	} else if ix.onDiskID(baseFile) != baseID {
		return
	}
	if ix.writeState(name, data) == nil && baseID == 0 {
		_ = os.Remove(filepath.Join(dir, deltaFile))
	}
	cleanTemps(dir)
}

// lockState makes the search state directory and returns its path and
// its lock, not yet taken. Neither is ever reached through a link that
// leads out of the memory directory, and a lock that is not a regular
// file is refused: the memory directory may be a clone's (team memory),
// and a committed link there must not make a search write elsewhere.
func (ix *Index) lockState() (string, *flock.Flock, error) {
	if err := atomicfile.MkdirAllInside(ix.dir.Path, StateDir, 0o755); err != nil {
		return "", nil, err
	}
	rel := StateDir + "/" + lockFile
	fi, err := atomicfile.StatInside(ix.dir.Path, rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", nil, err
	}
	if err == nil && !fi.Mode().IsRegular() {
		return "", nil, &untrusted.Error{Path: rel, Err: untrusted.ErrNotRegular, Mode: fi.Mode()}
	}
	dir := filepath.Join(ix.dir.Path, filepath.FromSlash(StateDir))
	return dir, flock.New(filepath.Join(dir, lockFile)), nil
}

// writeState replaces the state file name by data through atomicfile (a
// temp file and a rename, inside the memory directory), so a reader sees
// the old file or the new one.
func (ix *Index) writeState(name string, data []byte) error {
	return atomicfile.WriteInside(ix.dir.Path, StateDir+"/"+name, data, atomicfile.Options{Perm: 0o644})
}

// cleanTemps removes temp files a killed writer left (atomicfile's
// rule: its process is gone, or the file is older than a minute).
func cleanTemps(dir string) {
	atomicfile.CleanTemps(dir, []string{"."}, time.Minute, time.Now())
}

// onDiskID is the id of the index file name, or 0.
func (ix *Index) onDiskID(name string) uint64 {
	f, err := atomicfile.OpenInside(ix.dir.Path, StateDir+"/"+name)
	if err != nil {
		return 0
	}
	defer f.Close()
	head := make([]byte, headerLen+8)
	if _, err := io.ReadFull(f, head); err != nil || string(head[:len(magic)]) != magic {
		return 0
	}
	return binary.LittleEndian.Uint64(head[headerLen:])
}

// load reads an index file's header and body; nil when it is missing or
// damaged. It is opened through atomicfile as every file of the memory
// directory is (no symlink out, a regular file, at most
// untrusted.MaxMemory bytes: some 1.5 million topics), into memory of its
// own: strings decoded from it point into those bytes, which nothing
// writes to again. The file stays open for its tail (meta and postings).
func (ix *Index) load(name string) *segment {
	f, err := atomicfile.OpenInside(ix.dir.Path, StateDir+"/"+name)
	if err != nil {
		return nil
	}
	s := readSegment(f)
	if s == nil {
		f.Close()
	}
	return s
}

// readSegment reads the header and body of the index file f and keeps f
// for the postings region after them; nil when it does not decode.
func readSegment(f *os.File) *segment {
	fi, err := f.Stat()
	if err != nil || fi.Size() < int64(headerLen) || fi.Size() > untrusted.MaxMemory {
		return nil
	}
	size := fi.Size()
	hdr := make([]byte, headerLen)
	if _, err := f.ReadAt(hdr, 0); err != nil {
		return nil
	}
	np := int64(binary.LittleEndian.Uint64(hdr[hdrPostLen:]))
	nm := int64(binary.LittleEndian.Uint32(hdr[hdrMetaLen:]))
	if np < 0 || np > size-int64(headerLen) || nm > size-int64(headerLen)-np {
		return nil
	}
	split := size - np - nm
	head := make([]byte, split)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil
	}
	t := &tail{f: f, meta: region{off: split, n: nm, crc: binary.LittleEndian.Uint32(hdr[hdrMetaCRC:])},
		post: region{off: split + nm, n: np, crc: binary.LittleEndian.Uint32(hdr[hdrPostCRC:])}}
	s, err := decodeHead(head, t)
	if err != nil {
		return nil
	}
	return s
}

// dirsOf is the directory stamps of the index's newest listing.
func dirsOf(base, delta *segment) []stamp {
	switch {
	case delta != nil:
		return delta.dirs
	case base != nil:
		return base.dirs
	}
	return nil
}

func union(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortKeys(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
