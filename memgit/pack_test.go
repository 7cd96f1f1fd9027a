package memgit

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/google/go-cmp/cmp"
)

// bigTopic writes a topic of random text well over looseFloor, so that
// committing it makes packing due.
func bigTopic(t *testing.T, path string) {
	t.Helper()
	b := make([]byte, looseFloor)
	rand.Read(b)
	write(t, path, hex.EncodeToString(b)+"\n")
}

// largest is the biggest pack.
func largest(packs []packInfo) packInfo {
	var out packInfo
	for _, p := range packs {
		if p.size > out.size {
			out = p
		}
	}
	return out
}

// looseCount counts loose objects.
func looseCount(t *testing.T, r *Repo) int {
	t.Helper()
	hs, err := r.looseHashes()
	if err != nil {
		t.Fatal(err)
	}
	return len(hs)
}

// checkReadable reads every file of every commit through memgit, and
// has git check the whole object store.
func checkReadable(t *testing.T, dir string) {
	t.Helper()
	runGit(t, dir, "fsck", "--full", "--strict")
	r, err := Open(dir, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	commits, err := r.History("", 0)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	for _, c := range commits {
		files, err := r.FilesAt(c.Hash)
		if err != nil {
			t.Fatalf("FilesAt(%s): %v", c.Short, err)
		}
		for _, f := range files {
			if _, err := r.FileAt(c.Hash, f); err != nil {
				t.Fatalf("FileAt(%s, %s): %v", c.Short, f, err)
			}
		}
	}
}

func TestPackingPolicy(t *testing.T) {
	requireGit(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	opts := testOpts
	opts.Now = func() time.Time { return now }
	r, dir := newOwn(t)
	r.opts = opts
	if n := looseCount(t, r); n == 0 {
		t.Fatal("a small first commit was packed")
	}
	bigTopic(t, filepath.Join(dir, "user_big.md"))
	if _, err := r.Commit([]string{"user_big.md"}, "add user_big.md"); err != nil {
		t.Fatal(err)
	}
	if n := looseCount(t, r); n != 0 {
		t.Fatalf("%d loose objects after a commit past looseFloor, want them packed", n)
	}
	packs, _ := r.packs()
	if len(packs) != 1 {
		t.Fatalf("%d packs, want 1", len(packs))
	}
	// Within the hour a second big commit stays loose; an hour on it is
	// packed with the first pack's objects into a new base.
	bigTopic(t, filepath.Join(dir, "user_big2.md"))
	if _, err := r.Commit([]string{"user_big2.md"}, "add user_big2.md"); err != nil {
		t.Fatal(err)
	}
	if n := looseCount(t, r); n == 0 {
		t.Error("packed again within the hour")
	}
	// An hour on, the loose objects are packed beside the base, and at
	// each pack after that the recent pack and the loose objects are
	// packed into one again, until they hold as many objects as the base
	// and everything is packed into a new base.
	var counts []int
	for i := range 6 {
		base, _ := r.packs()
		now = now.Add(packInterval)
		bigTopic(t, filepath.Join(dir, fmt.Sprintf("user_next%d.md", i)))
		if _, err := r.Commit([]string{fmt.Sprintf("user_next%d.md", i)}, "add"); err != nil {
			t.Fatal(err)
		}
		if n := looseCount(t, r); n != 0 {
			t.Errorf("%d loose objects an hour on, want none", n)
		}
		packs, _ := r.packs()
		counts = append(counts, len(packs))
		if len(packs) == 2 && !slices.ContainsFunc(packs, func(p packInfo) bool { return p == largest(base) }) {
			t.Errorf("pack %d rewrote the base pack", i)
		}
	}
	if !slices.Contains(counts, 1) || !slices.Contains(counts, 2) || slices.Max(counts) > 2 {
		t.Errorf("packs after each pack: %v, want a base and a recent pack, now and then merged into one", counts)
	}
	if got := runGit(t, dir, "count-objects", "-v"); !strings.Contains(got, "count: 0\n") || !strings.Contains(got, "garbage: 0\n") {
		t.Errorf("git count-objects -v:\n%s", got)
	}
	checkReadable(t, dir)
}

func TestProjectNotPacked(t *testing.T) {
	r, top := newProject(t)
	bigTopic(t, filepath.Join(top, ".memory", "user_big.md"))
	if _, err := r.Commit([]string{"user_big.md"}, "memdir: add big"); err != nil {
		t.Fatal(err)
	}
	if packs, _ := r.packs(); len(packs) != 0 {
		t.Errorf("memgit packed a project's repository: %v (git gc --auto's job)", packs)
	}
}

// TestKilledWhilePacking kills a memdir at each step of packing: every
// object stays readable by git and by memgit, and the next commit
// cleans up and packs.
func TestKilledWhilePacking(t *testing.T) {
	for _, point := range []string{"pack-written", "pack-placed"} {
		t.Run(point, func(t *testing.T) {
			requireGit(t)
			r, dir := newOwn(t)
			bigTopic(t, filepath.Join(dir, "user_x.md"))
			cmd := startStopped(t, dir, point)
			checkReadable(t, dir) // while it is stopped there
			kill9(t, cmd)
			checkReadable(t, dir)
			lock := filepath.Join(dir, ".git", "index.lock")
			if _, err := os.Stat(lock); err == nil {
				t.Fatal("packing ran with the index locked")
			}
			write(t, filepath.Join(dir, "user_y.md"), "y\n")
			r.opts.Now = func() time.Time { return time.Now().Add(2 * packInterval) }
			if _, err := r.Commit([]string{"user_x.md", "user_y.md"}, "add user_x.md, user_y.md"); err != nil {
				t.Fatal(err)
			}
			if temps, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", ".memdir-tmp-*")); len(temps) != 0 {
				t.Errorf("left behind: %v", temps)
			}
			if n := looseCount(t, r); n != 0 {
				t.Errorf("%d loose objects after the next commit, want them packed", n)
			}
			checkReadable(t, dir)
		})
	}
}

// TestFreshDeltaSearch: after maxReused packs that reuse deltas, the
// next searches every delta afresh (so that chains stay short) and the
// count starts again.
func TestFreshDeltaSearch(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	if err := r.writePackState(packState{loose: looseFloor, reused: maxReused}); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "user_a.md"), "a\n")
	if _, err := r.Commit([]string{"user_a.md"}, "add user_a.md"); err != nil {
		t.Fatal(err)
	}
	if st := r.readPackState(); st.reused != 0 || st.loose != 0 {
		t.Errorf("state after a fresh pack = %+v, want the counts reset", st)
	}
	if n := looseCount(t, r); n != 0 {
		t.Errorf("%d loose objects, want none", n)
	}
	checkReadable(t, dir)
}

// TestIndexPackMatchesParser: the streaming indexer gives what go-git's
// Parser gives, for a pack with deltas of every depth.
func TestIndexPackMatchesParser(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	text := strings.Repeat("a line of memory that stays the same\n", 200)
	for i := range 12 {
		write(t, filepath.Join(dir, "user_a.md"), text+fmt.Sprintf("edit %d\n", i))
		if _, err := r.Commit([]string{"user_a.md"}, "edit"); err != nil {
			t.Fatal(err)
		}
	}
	loose, _ := r.looseHashes()
	name, err := r.writePack(loose, false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(r.packDir(), name+".pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := indexPack(f)
	if err != nil {
		t.Fatal(err)
	}
	f.Seek(0, 0)
	w := new(idxfile.Writer)
	p, err := packfile.NewParser(packfile.NewScanner(f), w)
	if err == nil {
		_, err = p.Parse()
	}
	if err != nil {
		t.Fatal(err)
	}
	want, _ := w.Index()
	if diff := cmp.Diff(idxEntries(t, want), idxEntries(t, got)); diff != "" {
		t.Errorf("index entries (-parser +indexPack):\n%s", diff)
	}
	if out := runGit(t, dir, "verify-pack", "-v", filepath.Join(r.packDir(), name+".idx")); !strings.Contains(out, "chain length = 1") {
		t.Errorf("the pack has no deltas to test with:\n%s", out)
	}
}

func idxEntries(t *testing.T, idx *idxfile.MemoryIndex) []idxfile.Entry {
	t.Helper()
	iter, err := idx.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var out []idxfile.Entry
	for {
		e, err := iter.Next()
		if err != nil {
			return out
		}
		out = append(out, *e)
	}
}
