package dream

import (
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
		want      bool
	}{
		{"nothing waiting, never dreamed", 0, 0, false},
		{"one waiting, never dreamed", 1, 0, true},
		{"a few waiting, dreamed an hour ago", 5, time.Hour, false},
		{"a few waiting, dreamed four days ago", 5, 96 * time.Hour, true},
		{"many waiting, dreamed an hour ago", OverdueEntries, time.Hour, true},
		{"nothing waiting, dreamed long ago", 0, 400 * time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for i := range tc.entries {
				e := dailylog.Entry{Type: "project", Title: fmt.Sprintf("Fact %d", i), Text: fmt.Sprintf("Port %d.", i)}
				if _, err := dailylog.Append(dir, now, e); err != nil {
					t.Fatal(err)
				}
			}
			if tc.lastDream > 0 {
				lock := filepath.Join(dir, LockFile)
				if err := os.WriteFile(lock, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				at := now.Add(-tc.lastDream)
				if err := os.Chtimes(lock, at, at); err != nil {
					t.Fatal(err)
				}
			}
			got, why, err := Overdue(memdir.Open(dir, memdir.Log), now)
			if err != nil || got != tc.want {
				t.Errorf("Overdue = %v (%q), %v; want %v", got, why, err, tc.want)
			}
		})
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
