package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMappedSearch checks that a mapped index answers as a read one does,
// and that an index file truncated while mapped is a fault the guard
// catches, not a crash.
func TestMappedSearch(t *testing.T) {
	d := newDir(t, map[string]string{
		"project_deploy.md": topicFile("project", "Deploy", "How we deploy", "Deploys go through the canary."),
		"user_role.md":      topicFile("user", "Role", "Who the user is", "A data engineer."),
	})
	q := Query{Text: "canary"}
	want := files(t, Open(d), q)
	if got := files(t, Open(d).MapFiles(), q); !cmp.Equal(got, want) || len(got) != 1 {
		t.Fatalf("mapped search = %v, read search = %v", got, want)
	}
	if runtime.GOOS != "linux" {
		return
	}
	base := filepath.Join(d.Path, filepath.FromSlash(StateDir), baseFile)
	data, ok := mapFile(base)
	if !ok {
		t.Fatal("mapFile could not map the index")
	}
	if err := os.Truncate(base, 0); err != nil {
		t.Fatal(err)
	}
	var sum byte
	if !faultGuard(func() { sum += data[len(data)-1] }) {
		t.Fatal("reading a page the truncated file lost did not fault")
	}
	if got := files(t, Open(d).MapFiles(), q); !cmp.Equal(got, want) {
		t.Fatalf("search over a truncated index = %v, want %v", got, want)
	}

	// The index shrinks after this search mapped it and before it reads
	// the dictionary: the search faults and runs again on the files.
	ix := Open(d).MapFiles()
	if _, err := ix.refresh(); err != nil { // the base is whole again
		t.Fatal(err)
	}
	shrink := func() (*current, error) {
		cur, err := ix.refresh()
		if err == nil {
			err = os.Truncate(base, 0)
		}
		return cur, err
	}
	hits, err := ix.guarded(context.Background(), Query{Text: "canary", NoRecall: true}, shrink)
	if err != nil || len(hits) != 1 || hits[0].File != "project_deploy.md" {
		t.Fatalf("search over an index that shrank while mapped = %v, %v; want the deploy topic", hits, err)
	}
	if ix.mapped {
		t.Fatal("the search did not fall back to reading the index after the fault")
	}
}

func TestFaultGuardPassesOtherPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the panic to go on", r)
		}
	}()
	faultGuard(func() { panic("boom") })
	t.Fatal("faultGuard swallowed a panic that is not a fault")
}

// TestParallelFaultReachesGuard checks that a fault in a worker (a scan
// reading paths from a mapped index truncated meanwhile) reaches the
// caller's faultGuard instead of crashing the process.
func TestParallelFaultReachesGuard(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("mapping is Linux-only")
	}
	p := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(p, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	data, ok := mapFile(p)
	if !ok {
		t.Fatal("mapFile could not map the file")
	}
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	var sums [2]byte
	faulted := faultGuard(func() {
		parallel(2, func(w int) { sums[w] += data[len(data)-1-w] })
	})
	if !faulted {
		t.Fatal("a worker's fault on a lost page did not reach the guard")
	}
}
