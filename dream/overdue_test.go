package dream

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/proc"
)

func TestOverdue(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		name      string
		entries   int
		lastDream time.Duration // ago; 0 for never
		seen      string        // the stamp the last dream left; "-" for none
		byHand    bool          // the entries were written by another tool
		want      bool
	}{
		{"nothing waiting, never dreamed", 0, 0, "-", false, false},
		{"one waiting, never dreamed", 1, 0, "-", false, true},
		{"a few waiting, dreamed an hour ago", 5, time.Hour, "0", false, false},
		{"a few waiting, dreamed four days ago", 5, 96 * time.Hour, "0", false, true},
		{"many waiting, dreamed an hour ago", OverdueEntries, time.Hour, "0", false, true},
		{"many counted, all seen, dreamed an hour ago", OverdueEntries, time.Hour, "20", false, false},
		{"nothing waiting, dreamed long ago", 0, 400 * time.Hour, "0", false, false},
		// Entries the count does not hold: found by the logs' times.
		{"written by hand, never dreamed", 1, 0, "-", true, true},
		{"written by hand, dreamed an hour ago", 5, time.Hour, "0", true, false},
		{"written by hand, dreamed four days ago", 5, 96 * time.Hour, "0", true, true},
		// A stamp missing or damaged: the logs' times, and a dream to
		// rebuild it when they changed since the last one.
		{"no stamp, logs changed since", 1, time.Hour, "-", false, true},
		{"damaged stamp, logs changed since", 1, time.Hour, "zz", false, true},
		{"stamp ahead of the count, logs changed since", 1, time.Hour, "99", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := memdir.Open(filepath.Join(t.TempDir(), "mem"), memdir.Log)
			if _, err := d.Init(); err != nil {
				t.Fatal(err)
			}
			for i := range tc.entries {
				e := dailylog.Entry{Type: "project", Title: fmt.Sprintf("Fact %d", i), Text: fmt.Sprintf("Port %d.", i)}
				if tc.byHand {
					writeByHand(t, d.Path, now, e)
					continue
				}
				if _, err := dailylog.Append(d.Path, now, e); err != nil {
					t.Fatal(err)
				}
			}
			if tc.seen != "-" {
				writeSeen(t, d.Path, tc.seen)
			}
			if tc.lastDream > 0 {
				lock := filepath.Join(d.Path, LockFile)
				if err := os.WriteFile(lock, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				at := now.Add(-tc.lastDream)
				if err := os.Chtimes(lock, at, at); err != nil {
					t.Fatal(err)
				}
			}
			got, why, err := Overdue(d, now)
			if err != nil || got != tc.want {
				t.Errorf("Overdue = %v (%q), %v; want %v", got, why, err, tc.want)
			}
		})
	}
}

// writeByHand appends e to its log as another tool would: no count.
func writeByHand(t *testing.T, dir string, now time.Time, e dailylog.Entry) {
	t.Helper()
	path := dailylog.Path(dir, now)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e.Time = now.Format("15:04")
	if _, err := f.WriteString(dailylog.Format(e)); err != nil {
		t.Fatal(err)
	}
}

func writeSeen(t *testing.T, dir, seen string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(seenPath))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(seen+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A running dream (its lock names this live process... here a live child)
// is never overdue: the session start does not start a second.
func TestOverdueNotWhileDreaming(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	if _, err := dailylog.Append(dir, now, dailylog.Entry{Type: "project", Title: "Fact", Text: "Port 1."}); err != nil {
		t.Fatal(err)
	}
	holder := startSleeper(t)
	if err := os.WriteFile(filepath.Join(dir, LockFile), []byte(holder.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, why, err := Overdue(memdir.Open(dir, memdir.Log), now); err != nil || got {
		t.Errorf("Overdue while a dream holds the lock = %v (%q), %v; want false", got, why, err)
	}
}

// startSleeper starts a child that lives until the test ends and returns
// its identity.
func startSleeper(t *testing.T) proc.ID {
	t.Helper()
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return proc.Of(cmd.Process.Pid)
}

// TestOverdueFollowsDreams: each dream records the log count it read, so
// the entries appended since are the ones a session start counts.
func TestOverdueFollowsDreams(t *testing.T) {
	d := newLogDir(t)
	wall := time.Now()
	for i := range OverdueEntries + 5 {
		appendEntry(t, d, day1, "project", fmt.Sprintf("Service %d", i), fmt.Sprintf("Service %d listens on port %d.", i, 8000+i))
	}
	if due, why, err := Overdue(d, wall); err != nil || !due || why != "25 log entries wait for a dream" {
		t.Fatalf("before a dream: Overdue = %v (%q), %v; want 25 waiting", due, why, err)
	}
	if _, err := Run(context.Background(), Options{Dir: d, Wall: func() time.Time { return wall }}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, d, seenPath); got != "25\n" {
		t.Errorf("%s = %q, want the 25 entries the dream read", seenPath, got)
	}
	if due, why, err := Overdue(d, wall); err != nil || due {
		t.Fatalf("after a dream: Overdue = %v (%q), %v; want false", due, why, err)
	}
	for i := range OverdueEntries {
		appendEntry(t, d, day1, "project", fmt.Sprintf("Queue %d", i), fmt.Sprintf("Queue %d holds %d jobs.", i, 10*i))
	}
	if due, why, err := Overdue(d, wall); err != nil || !due || why != "20 log entries wait for a dream" {
		t.Fatalf("after 20 more: Overdue = %v (%q), %v; want 20 waiting", due, why, err)
	}
	// A stamp removed (derived data) is rebuilt by the next dream, which
	// the logs' times ask for.
	if err := os.Remove(filepath.Join(d.Path, filepath.FromSlash(seenPath))); err != nil {
		t.Fatal(err)
	}
	if due, why, err := Overdue(d, wall); err != nil || !due {
		t.Fatalf("no stamp: Overdue = %v (%q), %v; want a dream to rebuild it", due, why, err)
	}
	if _, err := Run(context.Background(), Options{Dir: d, Wall: func() time.Time { return wall }}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, d, seenPath); got != "45\n" {
		t.Errorf("%s = %q, want 45", seenPath, got)
	}
}
