package memgit

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/memdir/memdir/atomicfile"
)

// A memory directory that is a repository of its own is committed to on
// every change, and each commit at 10,000 topics leaves about 1.2 MB of
// loose objects (its root tree and MEMORY.md, stored uncompressed so that
// a commit stays cheap, see objects.go). git gc --auto counts loose
// objects and would let a gigabyte pile up before packing, so memgit
// packs its own repositories itself, after a commit and under memdir's
// lock, by bytes:
//
//   - memgit tallies the bytes of the loose objects it writes (in
//     <git dir>/memdir-pack, with the time of the last pack);
//   - once the tally reaches a quarter of what the packs hold (and at
//     least looseFloor), and the last pack is an hour old, it packs; past
//     looseCeiling, or past git's own gc.auto count (6,700 loose objects,
//     estimated from objects/17 as git does), it packs at once;
//   - a pack rewrites the loose objects and every pack but the largest
//     (the base) into one, reusing their deltas, so it costs what changed
//     since the base was written; once those hold as many objects as the
//     base, everything is repacked into a new base;
//   - reused deltas chain: each pack makes the newest version of a big
//     object the base of the one before, so chains grow by one per pack.
//     Every maxReused packs the deltas are searched afresh, which go-git
//     caps at depth 50, so no chain grows past about a hundred. (At
//     10,000 topics that pack costs a few seconds, and the chains it
//     makes, linear as go-git's size-sorted search makes them, hold a
//     full copy of the root tree per fifty versions.)
//
// Every pack holds one copy of each big object and deltas against it,
// so the store stays within a copy or two of what git gc would leave
// (scripts/bench-git measures a year of daily commits). A project's
// repository is left to git, whose gc --auto runs as the person works.

// Packing thresholds: see above.
const (
	looseFloor      = 64 << 10
	looseCeiling    = 16 << 20 // at 10,000 topics, about 9 commits; packing them took 1.7 s and 120 MB
	looseShare      = 4        // pack once loose bytes reach 1/looseShare of the packs
	packInterval    = time.Hour
	gcAutoLimit     = 6700 // git's gc.auto default
	maxReused       = 50   // packs reusing deltas before one searches afresh
	packStateFile   = "memdir-pack"
	estimateFanout  = "17" // the objects/ directory git samples
	estimateBuckets = 256
)

// packState is memgit's record of loose bytes written since the last
// pack, when that was, and how many packs since the last one that
// searched every delta afresh.
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
	if !due {
		return false, r.writePackState(st)
	}
	// The tally is recorded first: if this process dies packing, the next
	// one still knows the loose objects are due.
	if err := r.writePackState(st); err != nil {
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

// pack packs the loose objects and every pack but the base into one
// (fresh: searching every delta of those anew), or everything into a
// new base once the rest holds as many objects as the base. Packs with a
// .keep file are left alone.
func (r *Repo) pack(packs []packInfo, fresh bool) error {
	loose, err := r.looseHashes()
	if err != nil {
		return err
	}
	var base *packInfo
	var rest []packInfo
	for i, p := range packs {
		switch {
		case p.keep:
		case base == nil || p.size > base.size:
			if base != nil {
				rest = append(rest, *base)
			}
			base = &packs[i]
		default:
			rest = append(rest, p)
		}
	}
	if base != nil {
		n, err := r.packCounts(rest)
		if err != nil {
			return err
		}
		baseCount, err := r.packCounts([]packInfo{*base})
		if err != nil {
			return err
		}
		if n+len(loose) >= baseCount {
			rest, fresh = append(rest, *base), false // a full repack reuses deltas: searching all costs too much
		}
	}
	return r.repack(loose, rest, !fresh)
}

// repack writes the loose objects and those of the given packs into one
// new pack, then deletes them from where they were.
func (r *Repo) repack(loose []plumbing.Hash, packs []packInfo, reuse bool) error {
	hashes := append([]plumbing.Hash(nil), loose...)
	seen := make(map[plumbing.Hash]bool, len(loose))
	for _, h := range loose {
		seen[h] = true
	}
	for _, p := range packs {
		hs, err := r.packHashes(p.name)
		if err != nil {
			return err
		}
		for _, h := range hs {
			if !seen[h] {
				seen[h] = true
				hashes = append(hashes, h)
			}
		}
	}
	if len(hashes) == 0 {
		return nil
	}
	name, err := r.writePack(hashes, reuse)
	if err != nil {
		return err
	}
	hook("pack-placed")
	r.removeLoose(loose)
	for _, p := range packs {
		if p.name != name {
			r.removePack(p.name)
		}
	}
	return nil
}

// writeSmallFile replaces a small state file through a temporary file
// named as atomicfile names its own (so a killed writer's is cleaned up),
// so that it is never seen half written. It is not synced: losing it
// costs only a late or early pack, or a lock record.
func writeSmallFile(name, data string) error {
	f, err := os.CreateTemp(filepath.Dir(name), atomicfile.TempPattern(filepath.Base(name)))
	if err != nil {
		return err
	}
	_, werr := f.WriteString(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(f.Name(), name)
	}
	if werr != nil {
		_ = os.Remove(f.Name())
	}
	return werr
}
