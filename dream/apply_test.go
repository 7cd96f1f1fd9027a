package dream

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
)

// TestDreamCleansTemps leaves temp files in the directories a dream
// writes, as killed and live writers leave them, and checks that a dream
// removes those of a writer that is gone and old ones, and keeps a live
// writer's fresh temp.
func TestDreamCleansTemps(t *testing.T) {
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	live := os.Getppid()
	dir := t.TempDir()
	d := memdir.Open(dir, memdir.Log)
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{memdir.ArchiveDir, stateDir, reportsDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	type temp struct {
		sub  string
		pid  int
		age  time.Duration
		kept bool
	}
	temps := []temp{
		{".", dead.Process.Pid, 0, false},
		{".", live, 0, true},
		{".", live, 2 * memdir.TempMaxAge, false},
		{memdir.ArchiveDir, dead.Process.Pid, 0, false},
		{stateDir, dead.Process.Pid, 0, false},
		{stateDir, live, 0, true},
		{reportsDir, live, 2 * memdir.TempMaxAge, false},
	}
	name := func(tc temp) string {
		return filepath.Join(dir, tc.sub, atomicfile.TempPrefix+"topic.md-"+strconv.Itoa(tc.pid)+"-"+strconv.FormatInt(int64(tc.age), 16))
	}
	for _, tc := range temps {
		path := name(tc)
		if err := os.WriteFile(path, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-tc.age)
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Run(context.Background(), Options{Dir: d}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range temps {
		_, err := os.Stat(name(tc))
		if kept := err == nil; kept != tc.kept {
			t.Errorf("temp in %s of writer %d, %v old: kept %v, want %v", tc.sub, tc.pid, tc.age, kept, tc.kept)
		}
	}
}
