package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/memdir/memdir/dream"
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
