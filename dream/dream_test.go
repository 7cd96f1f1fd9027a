package dream

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// newLogDir makes a log-mode memory directory with the clock at testNow.
func newLogDir(t *testing.T) *memdir.Dir {
	t.Helper()
	d := memdir.Open(filepath.Join(t.TempDir(), "mem"), memdir.Log)
	d = d.With(memdir.WithClock(func() time.Time { return testNow }))
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	return d
}

func appendEntry(t *testing.T, d *memdir.Dir, at time.Time, typ typesx.Type, title, text string) {
	t.Helper()
	if _, err := dailylog.Append(d.Path, at, dailylog.Entry{Type: typ, Title: title, Text: text}); err != nil {
		t.Fatal(err)
	}
}

func dreamOnce(t *testing.T, d *memdir.Dir, opts Options) *Report {
	t.Helper()
	opts.Dir = d
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func readFile(t *testing.T, d *memdir.Dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(d.Path, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var day1 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestDreamAppendedAndEditedLogs(t *testing.T) {
	d := newLogDir(t)
	appendEntry(t, d, day1, typesx.Project, "Deploys", "Deploys need the VPN.")
	rep := dreamOnce(t, d, Options{})
	if diff := cmp.Diff([]string{"project_deploys.md"}, rep.Created); diff != "" {
		t.Fatalf("created (-want +got):\n%s", diff)
	}
	// Append one entry and edit the old one by hand.
	appendEntry(t, d, day1.Add(time.Hour), typesx.Project, "Deploys", "Deploy windows are 10:00 to 16:00.")
	log := dailylog.Path(d.Path, day1)
	data, _ := os.ReadFile(log)
	if err := os.WriteFile(log, []byte(strings.Replace(string(data), "Deploys need the VPN.", "Releases are cut on Mondays.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	rep = dreamOnce(t, d, Options{})
	if rep.EntriesRead != 2 {
		t.Errorf("entries read = %d, want 2 (the edited and the appended)", rep.EntriesRead)
	}
	tp, err := d.Read("project_deploys.md")
	if err != nil {
		t.Fatal(err)
	}
	body := tp.Body
	for _, want := range []string{"Deploys need the VPN.", "Releases are cut on Mondays.", "Deploy windows are 10:00 to 16:00."} {
		if strings.Count(body, want) != 1 {
			t.Errorf("topic holds %q %d times, want 1:\n%s", want, strings.Count(body, want), body)
		}
	}
	if rep := dreamOnce(t, d, Options{}); rep.EntriesRead != 0 || rep.Changes() {
		t.Errorf("third dream read %d entries and changed %v, want nothing", rep.EntriesRead, rep.Changed)
	}
}

func TestDreamArchivesExpired(t *testing.T) {
	d := newLogDir(t)
	expired := "---\nname: Launch\ndescription: Launch date\ntype: project\nexpires: 2026-11-01\n---\n\nLaunch is 2026-10-30.\n"
	if err := os.WriteFile(filepath.Join(d.Path, "project_launch.md"), []byte(expired), 0o644); err != nil {
		t.Fatal(err)
	}
	// A topic already archived under that name gets a numbered neighbour.
	if err := os.MkdirAll(filepath.Join(d.Path, "archive"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path, "archive", "project_launch.md"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := dreamOnce(t, d, Options{})
	if diff := cmp.Diff([]string{"project_launch.md"}, rep.Archived); diff != "" {
		t.Fatalf("archived (-want +got):\n%s", diff)
	}
	if got := readFile(t, d, "archive/project_launch_2.md"); got != expired {
		t.Errorf("archived file = %q, want the topic unchanged", got)
	}
	if got := readFile(t, d, "archive/project_launch.md"); got != "old" {
		t.Errorf("the earlier archive was overwritten: %q", got)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	d := newLogDir(t)
	appendEntry(t, d, day1, typesx.Feedback, "Tests", "Run the linter before pushing.")
	before := snapshotFiles(t, d.Path)
	rep := dreamOnce(t, d, Options{DryRun: true})
	if !strings.Contains(rep.Diff, "+Run the linter before pushing.") {
		t.Errorf("dry-run diff lacks the new fact:\n%s", rep.Diff)
	}
	if diff := diffFiles(before, snapshotFiles(t, d.Path)); diff != "" {
		t.Errorf("dry run changed files:\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(d.Path, LockFile)); err == nil {
		t.Errorf("dry run took the consolidation lock")
	}
}

func TestConsolidationLock(t *testing.T) {
	tests := []struct {
		name     string
		pid      int
		age      time.Duration
		wantHeld bool
	}{
		{"live holder", 1, time.Minute, true},
		{"dead holder", 4194303, time.Minute, false},
		{"stale live holder", 1, 2 * time.Hour, false},
		{"no holder", 0, time.Minute, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newLogDir(t)
			path := filepath.Join(d.Path, LockFile)
			content := ""
			if tc.pid > 0 {
				content = strconv.Itoa(tc.pid) + "\n"
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			wall := time.Now()
			mtime := wall.Add(-tc.age)
			if err := os.Chtimes(path, mtime, mtime); err != nil {
				t.Fatal(err)
			}
			_, err := Run(context.Background(), Options{Dir: d, Wall: func() time.Time { return wall }})
			var held *HeldError
			if got := errors.As(err, &held); got != tc.wantHeld {
				t.Fatalf("Run error = %v, want held %v", err, tc.wantHeld)
			}
			fi, serr := os.Stat(path)
			if serr != nil {
				t.Fatal(serr)
			}
			data, _ := os.ReadFile(path)
			if tc.wantHeld {
				if held.PID != tc.pid || string(data) != content {
					t.Errorf("held by %d, lock now %q; want %d and the lock untouched", held.PID, data, tc.pid)
				}
				return
			}
			if len(data) != 0 || !fi.ModTime().Equal(wall) {
				t.Errorf("after the dream the lock holds %q with mtime %s, want empty with mtime %s", data, fi.ModTime(), wall)
			}
			if last, _ := LastDream(d.Path); !last.Equal(wall) {
				t.Errorf("LastDream = %s, want %s", last, wall)
			}
		})
	}
}

func TestDue(t *testing.T) {
	d := newLogDir(t)
	if due, err := Due(d, time.Time{}); err != nil || !due {
		t.Fatalf("never dreamed: Due = %v, %v; want true", due, err)
	}
	appendEntry(t, d, day1, typesx.Project, "Deploys", "Deploys need the VPN.")
	dreamOnce(t, d, Options{})
	last, _ := LastDream(d.Path)
	if due, err := Due(d, last); err != nil || due {
		t.Fatalf("after a dream: Due = %v, %v; want false", due, err)
	}
	appendEntry(t, d, day1, typesx.Project, "Deploys", "Deploys take ten minutes.")
	if due, err := Due(d, last); err != nil || !due {
		t.Fatalf("after a new entry: Due = %v, %v; want true", due, err)
	}
}

func TestSecretsAreSkipped(t *testing.T) {
	d := newLogDir(t)
	appendEntry(t, d, day1, typesx.Reference, "Deploy key", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	rep := dreamOnce(t, d, Options{})
	if len(rep.Skipped) != 1 || len(rep.Created) != 0 {
		t.Fatalf("skipped %v, created %v; want the secret skipped and nothing created", rep.Skipped, rep.Created)
	}
	if again := dreamOnce(t, d, Options{}); again.EntriesRead != 0 {
		t.Errorf("the skipped entry was read again")
	}
}
