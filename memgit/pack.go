package memgit

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// A memory directory that is a repository of its own is committed to on
// every change, and nothing runs git gc --auto there, so memgit packs it
// itself, after a commit and under memdir's lock, the way git gc --auto
// would:
//
//   - memgit tallies the bytes of the loose objects it writes (in
//     <git dir>/memdir-pack, with the time of the last pack): at 10,000
//     topics every commit writes a root tree of about half a megabyte;
//   - once the tally reaches a quarter of what the packs hold (and at
//     least looseFloor) and the last pack is an hour old, it packs; past
//     looseCeiling, or past git's own gc.auto count (6,700 loose objects,
//     estimated from objects/17 as git does), it packs at once;
//   - a pack rewrites the loose objects and every pack but the largest
//     (the base) into one recent pack, reusing the deltas the packs hold,
//     so it costs what changed since the base was written; once the
//     recent objects are as many as the base's, everything is packed into
//     a new base. Packs with a .keep file are left alone;
//   - reused deltas chain: each pack makes the newest version of a big
//     object the base of the one before, so chains grow by one per pack.
//     Every maxReused packs the recent pack's deltas are searched afresh,
//     which go-git caps at depth 50, so no chain grows past about a
//     hundred. (A fresh search of every object costs minutes at 10,000
//     topics, a fresh search of each recent pack seconds per commit.)
//
// The packs are go-git's: its packfile encoder (a delta search over
// packWindow objects, git's default) writes through the storage's
// PackfileWriter, which indexes the pack as it is written and puts the
// index, then the pack, in place. What memgit adds is git's crash-safe
// order: the new pack and index are synced before any loose object or
// old pack they hold is deleted, packs before their indexes, so that a
// reader, memdir's own or git, finds every object at every moment; an
// index left without its pack (a packer killed between the two) is
// removed before the next pack. A project's repository is left to git,
// whose gc --auto runs as the person works.

// Packing thresholds: see above.
const (
	looseFloor      = 64 << 10
	looseCeiling    = 16 << 20
	looseShare      = 4 // pack once loose bytes reach 1/looseShare of the packs
	packInterval    = time.Hour
	gcAutoLimit     = 6700 // git's gc.auto default
	packWindow      = 10   // git's pack.window default
	maxReused       = 50   // packs reusing deltas before one searches afresh
	packStateFile   = "memdir-pack"
	estimateFanout  = "17" // the objects/ directory git samples
	estimateBuckets = 256
)

// packDir is where packs live.
func (r *Repo) packDir() string { return filepath.Join(r.objectsDir(), "pack") }

// packState is memgit's record of loose bytes written since the last
// pack, when that was, and how many packs since the last one that
// searched every delta of the recent pack afresh.
type packState struct {
	loose  int64
	last   time.Time
	reused int
}

func (r *Repo) readPackState() packState {
	data, err := os.ReadFile(filepath.Join(r.common, packStateFile))
	if err != nil {
		return packState{}
	}
	return parsePackState(string(data))
}

func (r *Repo) writePackState(st packState) error {
	return writeSmallFile(filepath.Join(r.common, packStateFile), formatPackState(st))
}

// formatPackState is the state file's text.
func formatPackState(st packState) string {
	var last int64
	if !st.last.IsZero() {
		last = st.last.Unix()
	}
	return fmt.Sprintf("loose %d\nlast %d\nreused %d\n", st.loose, last, st.reused)
}

// parsePackState reads the state file; anything else is the zero state
// (which at worst packs early).
func parsePackState(data string) packState {
	var st packState
	var last int64
	if _, err := fmt.Sscanf(data, "loose %d\nlast %d\nreused %d\n", &st.loose, &last, &st.reused); err != nil ||
		st.loose < 0 || last < 0 || st.reused < 0 {
		return packState{}
	}
	if last > 0 {
		st.last = time.Unix(last, 0)
	}
	return st
}

// maybePack adds written to the tally of loose bytes and packs when the
// policy above says so. It reports whether it packed.
func (r *Repo) maybePack(written int64) (bool, error) {
	if !r.Own() {
		return false, nil
	}
	st := r.readPackState()
	st.loose += written
	packs, err := r.packs()
	if err != nil {
		return false, err
	}
	var packed int64
	for _, p := range packs {
		packed += p.size
	}
	now := r.now()
	since := now.Sub(st.last) // negative: the clock was set back
	due := st.loose >= max(looseFloor, packed/looseShare) && (since >= packInterval || since < 0) ||
		st.loose >= looseCeiling || r.looseEstimate() > gcAutoLimit
	// The tally is recorded first: if this process dies packing, the next
	// one still knows the loose objects are due.
	if err := r.writePackState(st); err != nil || !due {
		return false, err
	}
	fresh := st.reused >= maxReused
	if err := r.pack(packs, fresh); err != nil {
		return false, err
	}
	st = packState{last: now, reused: st.reused + 1}
	if fresh {
		st.reused = 0
	}
	return true, r.writePackState(st)
}

// looseEstimate estimates the number of loose objects the way git gc
// --auto does, from one of the 256 fan-out directories.
func (r *Repo) looseEstimate() int {
	entries, err := os.ReadDir(filepath.Join(r.objectsDir(), estimateFanout))
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if len(e.Name()) == 38 && isHex(e.Name()) {
			n++
		}
	}
	return n * estimateBuckets
}

// packInfo is one pack of the object store.
type packInfo struct {
	name string // pack-<hash>, without extension
	size int64  // of the .pack file
	keep bool   // a .keep file protects it from being repacked
}

// packs lists the packs that have both a .pack and an .idx.
func (r *Repo) packs() ([]packInfo, error) {
	entries, err := os.ReadDir(r.packDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
	}
	var out []packInfo
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".pack")
		if !ok || !strings.HasPrefix(base, "pack-") || !have[base+".idx"] {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		out = append(out, packInfo{name: base, size: info.Size(), keep: have[base+".keep"]})
	}
	return out, nil
}

// pack packs the loose objects and every pack but the base into one
// (fresh: searching their deltas anew), or everything into a new base
// once the rest holds as many objects as the base (see above), then
// deletes them from where they were.
func (r *Repo) pack(packs []packInfo, fresh bool) error {
	r.removeOrphanIndexes()
	var loose []plumbing.Hash
	err := r.st.ForEachObjectHash(func(h plumbing.Hash) error {
		loose = append(loose, h)
		return nil
	})
	if err != nil {
		return err
	}
	contents := map[string][]plumbing.Hash{}
	var base *packInfo
	var rest []packInfo
	for i, p := range packs {
		if p.keep {
			continue
		}
		if contents[p.name], err = r.packHashes(p.name); err != nil {
			return err
		}
		if base == nil || p.size > base.size {
			if base != nil {
				rest = append(rest, *base)
			}
			base = &packs[i]
		} else {
			rest = append(rest, p)
		}
	}
	n := len(loose)
	for _, p := range rest {
		n += len(contents[p.name])
	}
	all := base != nil && n >= len(contents[base.name])
	if all {
		rest = append(rest, *base)
	}
	hashes := append([]plumbing.Hash(nil), loose...)
	seen := make(map[plumbing.Hash]bool, n)
	for _, h := range loose {
		seen[h] = true
	}
	for _, p := range rest {
		for _, h := range contents[p.name] {
			if !seen[h] {
				seen[h] = true
				hashes = append(hashes, h)
			}
		}
	}
	if len(hashes) == 0 {
		return nil
	}
	name, err := r.writePack(hashes, all || !fresh) // searching all afresh costs too much
	if err != nil {
		return fmt.Errorf("write pack: %w", err)
	}
	hook("pack-placed")
	for _, h := range loose {
		_ = r.st.DeleteLooseObject(h)
	}
	for _, p := range rest {
		if p.name != name {
			r.removePack(p.name)
		}
	}
	r.st.Reindex()
	return nil
}

// objectsOnly hides the deltas packs hold from go-git's encoder, so that
// it searches every object for a delta afresh.
type objectsOnly struct{ storer.EncodedObjectStorer }

// writePack packs the given objects with go-git's encoder through the
// storage's PackfileWriter, reusing the deltas packs hold or searching
// them all afresh, syncs the pack and its index, and returns the pack's
// name.
func (r *Repo) writePack(hashes []plumbing.Hash, reuse bool) (string, error) {
	if err := os.MkdirAll(r.packDir(), 0o755); err != nil {
		return "", err
	}
	w, err := r.st.PackfileWriter()
	if err != nil {
		return "", err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var src storer.EncodedObjectStorer = r.st.Storage
	if !reuse {
		src = objectsOnly{src}
	}
	sum, err := packfile.NewEncoder(bw, src, false).Encode(hashes, packWindow)
	if err == nil {
		err = bw.Flush()
	}
	hook("pack-written")
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	name := "pack-" + sum.String()
	for _, ext := range []string{".idx", ".pack"} {
		if err := syncFile(filepath.Join(r.packDir(), name+ext)); err != nil {
			return "", err
		}
	}
	return name, syncDir(r.packDir())
}

// packHashes lists the objects a pack holds, from its index.
func (r *Repo) packHashes(name string) ([]plumbing.Hash, error) {
	f, err := os.Open(filepath.Join(r.packDir(), name+".idx"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	idx := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(bufio.NewReader(f)).Decode(idx); err != nil {
		return nil, fmt.Errorf("%s.idx: %w", name, err)
	}
	iter, err := idx.Entries()
	if err != nil {
		return nil, err
	}
	defer iter.Close()
	var out []plumbing.Hash
	for {
		e, err := iter.Next()
		if err != nil {
			return out, nil // io.EOF
		}
		out = append(out, e.Hash)
	}
}

// removeOrphanIndexes deletes the pack indexes that have no pack: a
// packer killed between placing the two leaves one, and go-git's writer
// would keep it for a later pack of the same name.
func (r *Repo) removeOrphanIndexes() {
	entries, _ := os.ReadDir(r.packDir())
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
	}
	for _, e := range entries {
		if base, ok := strings.CutSuffix(e.Name(), ".idx"); ok && strings.HasPrefix(base, "pack-") && !have[base+".pack"] {
			_ = os.Remove(filepath.Join(r.packDir(), e.Name()))
		}
	}
}

// removePack deletes a pack the new one holds: the .pack first, so that
// no reader lists a pack without its index.
func (r *Repo) removePack(name string) {
	for _, ext := range []string{".pack", ".rev", ".bitmap", ".idx"} {
		_ = os.Remove(filepath.Join(r.packDir(), name+ext))
	}
}

// syncFile makes a written file durable.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes a directory's entries (renames into it) durable.
func syncDir(dir string) error { return syncFile(dir) }

// writeSmallFile replaces a small state file through a temporary file,
// so that it is never seen half written. It is not synced: losing it
// costs only a late or early pack.
func writeSmallFile(name, data string) error {
	tmp := name + ".tmp" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
