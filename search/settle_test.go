package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSettledDirectoryStampsAreSaved: a file that is not memory changes
// the directory's stamp (memdir add rewrites MEMORY.md), so the next
// search lists the directory and stats every file, and finds no change.
// The stamps it took are saved, so the search after it (a recall, which
// trusts the stamps) neither lists nor stats again.
func TestSettledDirectoryStampsAreSaved(t *testing.T) {
	d := benchDir(t, 30)
	ix := Open(d)
	settledIndex(t, ix)
	if base, delta := ix.load(baseFile), ix.load(deltaFile); delta != nil || dirsChanged(d.Path, dirsOf(base, delta)) {
		t.Fatal("the index written for the test is not current")
	}

	writeFile(t, filepath.Join(d.Path, "MEMORY.md"), "- [Rewritten](user_x.md) — by memdir add\n")
	old := time.Now().Add(-time.Minute) // the directory's new stamp, long settled
	if err := os.Chtimes(d.Path, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Search(context.Background(), Query{Text: "deploy", NoRecall: true, DirsOnly: true}); err != nil {
		t.Fatal(err)
	}
	base, delta := ix.load(baseFile), ix.load(deltaFile)
	if base == nil || dirsChanged(d.Path, dirsOf(base, delta)) {
		t.Fatal("the directory's new stamp was not saved: every later search lists it again")
	}
	if delta == nil || delta.nsrc() != 0 || len(delta.removed) != 0 {
		t.Fatalf("delta = %+v; want one holding the stamps alone", delta)
	}
}

func TestSettledNeedsNewStampsNoneRacy(t *testing.T) {
	a := []stamp{{path: ".", mtime: 1}, {path: "logs", mtime: 0}}
	b := []stamp{{path: ".", mtime: 2}, {path: "logs", mtime: 0}}
	racy := []stamp{{path: ".", mtime: 2, racy: true}, {path: "logs", mtime: 0}}
	for _, tc := range []struct {
		name      string
		now, have []stamp
		want      bool
	}{
		{"same stamps", a, a, false},
		{"moved", b, a, true},
		{"moved, racy", racy, a, false},
		{"no index stamps", a, nil, true},
	} {
		if got := (&scan{dirs: tc.now}).settled(tc.have); got != tc.want {
			t.Errorf("%s: settled = %v; want %v", tc.name, got, tc.want)
		}
	}
}

// settledIndex writes the index of ix's directory as a search long after
// the files were written would: every stamp the files' own, none racy
// (files written by a test are all racy for a while, and a racy file is
// read again, and the index saved, by every search).
func settledIndex(t testing.TB, ix *Index) {
	t.Helper()
	// The state directory first: making it moves the directory's stamp.
	if err := os.MkdirAll(filepath.Join(ix.dir.Path, StateDir), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(ix.dir.Path, old, old); err != nil {
		t.Fatal(err)
	}
	sc := scanFiles(ix.dir.Path, nil, nil)
	b := newBuilder(1, 0)
	for i := range sc.now {
		sc.now[i].racy = false
	}
	for i := range sc.dirs {
		sc.dirs[i].racy = false
	}
	ix.addFiles(b, sc, sc.changed)
	if _, err := ix.save(b, 0); err != nil {
		t.Fatal(err)
	}
}
