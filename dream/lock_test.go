package dream

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/internal/diskfull"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/proc"
	"github.com/memdir/memdir/typesx"
)

// TestFailedDreamKeepsLastDream runs dreams that fail on a real full disk
// (a tmpfs filled to its last page), one that cannot even take the lock
// and one that takes it and fails writing its journal, and checks that
// the lock still says when the last finished dream was: no lock when
// there was none, else the previous dream's time, never the failed one's.
// Then, with space again, a dream runs and stamps the lock.
func TestFailedDreamKeepsLastDream(t *testing.T) {
	lastDream := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		prev time.Time // zero: never dreamed
		free int       // bytes freed after filling the disk
		at   string    // where the dream fails: in its error
	}{
		{"never dreamed, fails taking the lock", time.Time{}, 0, "take " + LockFile},
		{"dreamed before, fails taking the lock", lastDream, 0, "take " + LockFile},
		{"never dreamed, fails after the lock", time.Time{}, 8192, "journal"},
		{"dreamed before, fails after the lock", lastDream, 8192, "journal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(diskfull.Mount(t, 1<<20), "mem")
			d := memdir.Open(dir, memdir.Log)
			if _, err := d.Init(); err != nil {
				t.Fatal(err)
			}
			if _, err := dailylog.Append(dir, testNow, dailylog.Entry{Type: typesx.Project, Title: "Deploys", Text: "Deploys need the VPN."}); err != nil {
				t.Fatal(err)
			}
			lock := filepath.Join(dir, LockFile)
			if !tc.prev.IsZero() {
				if err := os.WriteFile(lock, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(lock, tc.prev, tc.prev); err != nil {
					t.Fatal(err)
				}
			}
			fill := diskfull.Fill(t, filepath.Dir(dir), "fill")
			if tc.free > 0 {
				fi, err := os.Stat(fill)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(fill, fi.Size()-int64(tc.free)); err != nil {
					t.Fatal(err)
				}
			}

			_, err := Run(context.Background(), Options{Dir: d})
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), tc.at) {
				t.Fatalf("dream on a full disk: %v; want no space left, in %q", err, tc.at)
			}
			got, err := LastDream(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tc.prev) {
				t.Errorf("after a failed dream, LastDream = %v, want %v", got, tc.prev)
			}
			if data, err := os.ReadFile(lock); err == nil && len(data) > 0 {
				t.Errorf("the lock still names a holder after the dream: %q", data)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".memdir-tmp-*")); len(left) > 0 {
				t.Errorf("temp files left beside the lock: %v", left)
			}

			if err := os.Remove(fill); err != nil {
				t.Fatal(err)
			}
			before := time.Now().Add(-time.Second)
			rep, err := Run(context.Background(), Options{Dir: d})
			if err != nil {
				t.Fatalf("dream with space again: %v", err)
			}
			if len(rep.Created) != 1 {
				t.Errorf("dream with space again created %v, want one topic", rep.Created)
			}
			if got, _ := LastDream(dir); got.Before(before) {
				t.Errorf("after a finished dream, LastDream = %v, want about now", got)
			}
		})
	}
}

// TestLockHolder checks who the lock names while a dream holds it, and
// which holders keep another dream out: a live process, by its bare PID
// (as Claude Code writes it) or with its start time; not a PID that a
// later process reuses, a dead one, a stale lock or an empty one.
func TestLockHolder(t *testing.T) {
	wall := time.Now()
	self := proc.Self()
	parent := proc.Of(os.Getppid())
	for _, tc := range []struct {
		name    string
		content string
		age     time.Duration
		held    bool
	}{
		{"bare live PID", strconv.Itoa(os.Getppid()) + "\n", 0, true},
		{"live PID with its start", parent.String(), 0, true},
		{"live PID, another start: reused", strconv.Itoa(os.Getppid()) + " 1" + parent.Start, 0, false},
		{"stale", parent.String(), 2 * time.Hour, false},
		{"empty: a finished dream", "", 0, false},
		{"garbage", "not a pid", 0, false},
		{"this process", self.String(), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if parent.Start == "" && strings.Contains(tc.name, "start") {
				t.Skip("no process start times here")
			}
			dir := t.TempDir()
			lock := filepath.Join(dir, LockFile)
			if err := os.WriteFile(lock, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			mtime := wall.Add(-tc.age)
			if err := os.Chtimes(lock, mtime, mtime); err != nil {
				t.Fatal(err)
			}
			l, err := acquireConsolidate(dir, wall)
			if held := errors.Is(err, ErrHeld); held != tc.held || err != nil && !held {
				t.Fatalf("acquire over %q: %v; want held %v", tc.content, err, tc.held)
			}
			if tc.held {
				return
			}
			data, err := os.ReadFile(lock)
			if err != nil || string(data) != self.String()+"\n" {
				t.Errorf("while dreaming the lock holds %q (%v), want %q", data, err, self.String()+"\n")
			}
			if err := l.release(false, wall); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(lock)
			if err != nil || fi.Size() != 0 || !fi.ModTime().Equal(mtime) {
				t.Errorf("after a failed dream the lock is %v (%v), want empty with mtime %v", fi, err, mtime)
			}
		})
	}
}

// FuzzLockHolder reads arbitrary lock content and checks that whenever
// memdir names a holder, it is the PID Claude Code reads from the same
// lock (parseInt of the trimmed text: its leading digits), so the two
// never disagree about who holds it; and that a held lock is only ever
// one that names a holder.
func FuzzLockHolder(f *testing.F) {
	for _, seed := range []string{"", "1234", "1234\n", "1234 98765\n", " 42 ", "+7", "-3", "0", "abc", "12x", "1 2 3", "99999999999999999999999", "5\u00a0start"} {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, content string) {
		if err := os.WriteFile(filepath.Join(dir, LockFile), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := readLock(dir)
		if err != nil {
			t.Fatalf("readLock(%q): %v", content, err)
		}
		if !st.named {
			if err := st.held(time.Now()); err != nil {
				t.Fatalf("lock %q names no holder but is held: %v", content, err)
			}
			return
		}
		lead := strings.TrimLeft(strings.TrimSpace(content), "+")
		end := strings.IndexFunc(lead, func(r rune) bool { return r < '0' || r > '9' })
		if end >= 0 {
			lead = lead[:end]
		}
		if want, err := strconv.Atoi(lead); err != nil || want != st.holder.PID {
			t.Errorf("lock %q: memdir reads holder %d, Claude Code's parseInt %q", content, st.holder.PID, lead)
		}
	})
}
