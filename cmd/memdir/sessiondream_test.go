package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
)

// TestSessionStartDreamsWhenOverdue: in log mode, a session-start hook
// with enough entries waiting starts a dream in the background, which
// distills them, and the hook's own output is the context alone.
func TestSessionStartDreamsWhenOverdue(t *testing.T) {
	e := newMCPEnv(t)
	e.env = append(e.env, "MEMDIR_MODE=log")
	dir := filepath.Join(t.TempDir(), "mem")
	for i := range 20 {
		e.run("", "--dir", dir, "add", "project", fmt.Sprintf("Fact %d", i), fmt.Sprintf("Service %d listens on port %d.", i, 8000+i))
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	c := e.command("", "--dir", dir, "context", "--agent", "claude", "--no-instructions", "--format", "claude-hook")
	var stderr strings.Builder
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("hook: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "dreaming in the background: 20 log entries wait") {
		t.Fatalf("hook stderr = %q, want the background dream announced", stderr.String())
	}
	if !json.Valid(out) || !strings.Contains(string(out), `"hookSpecificOutput"`) {
		t.Errorf("hook output = %.80q, want the hook's JSON alone", out)
	}
	// The dream writes the distilled topics into the directory, then
	// releases its lock (empties it): wait for both.
	deadline := time.After(time.Minute)
	distilled := false
	for {
		select {
		case ev := <-w.Events:
			base := filepath.Base(ev.Name)
			if strings.HasPrefix(base, "project_") && strings.HasSuffix(base, ".md") {
				distilled = true
			}
			if fi, err := os.Stat(filepath.Join(dir, dream.LockFile)); distilled && err == nil && fi.Size() == 0 {
				return
			}
		case err := <-w.Errors:
			t.Fatal(err)
		case <-deadline:
			t.Fatal("no topic distilled a minute after the session-start hook")
		}
	}
}

// TestSessionStartSyncs: with a sync remote set, a session-start hook
// starts `memdir sync` in the background, the memory another machine
// pushed arrives in this machine's memory directory, and a second
// session started at once does not start another sync.
func TestSessionStartSyncs(t *testing.T) {
	e, mem := pushedFromAnotherMachine(t)

	hook := func() string {
		c := e.command("", "context", "--agent", "claude", "--no-instructions", "--format", "claude-hook")
		var stderr strings.Builder
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			t.Fatalf("hook: %v\n%s", err, stderr.String())
		}
		if !json.Valid(out) {
			t.Errorf("hook output = %.80q, want the hook's JSON alone", out)
		}
		return stderr.String()
	}
	if got := hook(); !strings.Contains(got, "syncing with your sync remote") {
		t.Fatalf("hook stderr = %q, want the background sync announced", got)
	}
	if got := hook(); strings.Contains(got, "syncing") {
		t.Errorf("second hook stderr = %q, want no second sync within %v", got, memsync.MinInterval)
	}
	awaitSynced(t, e, mem)
}

// pushedFromAnotherMachine is a project whose memory another machine
// (another home) pushed to a file:// sync remote, and this machine's
// env with the same remote set and nothing synced yet; it returns the
// memory directory the memory should arrive in.
func pushedFromAnotherMachine(t *testing.T) (*mcpEnv, string) {
	t.Helper()
	e := newMCPEnv(t)
	work := filepath.Dir(e.home)
	bare := filepath.Join(work, "memory.git")
	for _, args := range [][]string{
		{"init", "-q", "--bare", "--initial-branch=main", bare},
		{"init", "-q", e.proj},
		{"-C", e.proj, "remote", "add", "origin", "git@github.com:acme/app.git"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	here := e.env
	e.env = append(append([]string{}, here...), "MEMDIR_HOME="+filepath.Join(work, "home-a"))
	e.run("", "remote", "set", "file://"+bare)
	e.run("", "add", "feedback", "Testing policy", "Integration tests hit a real database.")
	e.run("", "sync")
	e.env = here
	e.run("", "remote", "set", "file://"+bare)
	mem := e.memoryDir("")
	if _, err := os.Stat(filepath.Join(mem, "feedback_testing_policy.md")); err == nil {
		t.Fatal("the topic is here before any sync")
	}
	return e, mem
}

// awaitSynced polls, for a minute at most, until the memory another
// machine pushed is in mem with its index line, then waits for the sync
// to let go of its lock (it is done with the home then).
func awaitSynced(t *testing.T, e *mcpEnv, mem string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		data, err := os.ReadFile(filepath.Join(mem, "feedback_testing_policy.md"))
		idx, _ := os.ReadFile(filepath.Join(mem, "MEMORY.md"))
		if err == nil && strings.Contains(string(data), "real database") && strings.Contains(string(idx), "feedback_testing_policy.md") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the pushed memory did not arrive within a minute")
		}
	}
	lk, err := memdir.AcquireLock(context.Background(), filepath.Join(e.home, ".memdir", memsync.Folder), time.Minute, "test")
	if err != nil {
		t.Fatal(err)
	}
	lk.Release()
}

// TestDaemonSyncs: a running daemon syncs when it starts; SIGTERM stops
// it cleanly.
func TestDaemonSyncs(t *testing.T) {
	e, mem := pushedFromAnotherMachine(t)
	c := e.command("", "daemon", "--no-watch", "--sync-every", "1h")
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	awaitSynced(t, e, mem)
	if err := c.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); err != nil {
		t.Fatalf("daemon: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), " sync: file://") || !strings.Contains(stderr.String(), "2 files pulled, 0 pushed") {
		t.Errorf("daemon stderr = %q, want its sync logged", stderr.String())
	}
}
