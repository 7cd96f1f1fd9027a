package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
)

// TestSessionStartSyncsTeam: with no sync remote of their own, a
// teammate who accepted the project's team remote gets the team memory
// another teammate pushed there from a session start's background sync.
func TestSessionStartSyncsTeam(t *testing.T) {
	e := newMCPEnv(t)
	work := filepath.Dir(e.home)
	bare := filepath.Join(work, "team.git")
	other := filepath.Join(work, "alice", "app")
	settings := []byte("team:\n  remote: file://" + bare + "\n")
	for _, args := range [][]string{
		{"init", "-q", "--bare", "--initial-branch=main", bare},
		{"init", "-q", e.proj},
		{"-C", e.proj, "remote", "add", "origin", "git@github.com:acme/app.git"},
		{"init", "-q", other},
		{"-C", other, "remote", "add", "origin", "https://github.com/acme/app.git"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, d := range []string{e.proj, other} {
		if err := os.WriteFile(filepath.Join(d, ".memdir.yaml"), settings, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Alice, in her own home: accept, add to team memory, sync.
	here := e.env
	e.env = append(append([]string{}, here...), "MEMDIR_HOME="+filepath.Join(work, "home-a"))
	e.run(other, "remote", "team", "accept")
	e.run(other, "add", "--team", "reference", "Kafka dashboards", "The kafka lag dashboard is grafana/kafka-lag.")
	e.run(other, "sync")
	e.env = here

	hook := func() string {
		c := e.command("", "context", "--agent", "claude", "--no-instructions", "--format", "claude-hook")
		var stderr strings.Builder
		c.Stderr = &stderr
		if err := c.Run(); err != nil {
			t.Fatalf("hook: %v\n%s", err, stderr.String())
		}
		return stderr.String()
	}
	// Not accepted yet: no sync starts.
	if got := hook(); strings.Contains(got, "syncing") {
		t.Fatalf("hook stderr = %q, want no sync before the team remote is accepted", got)
	}
	e.run("", "remote", "team", "accept")
	if got := hook(); !strings.Contains(got, "syncing with your sync remote") {
		t.Fatalf("hook stderr = %q, want the background sync announced", got)
	}
	team := filepath.Join(e.proj, ".memdir", "team")
	deadline := time.Now().Add(time.Minute)
	for {
		data, err := os.ReadFile(filepath.Join(team, "reference_kafka_dashboards.md"))
		idx, _ := os.ReadFile(filepath.Join(team, "MEMORY.md"))
		if err == nil && strings.Contains(string(data), "grafana/kafka-lag") && strings.Contains(string(idx), "reference_kafka_dashboards.md") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the team memory did not arrive within a minute")
		}
		time.Sleep(20 * time.Millisecond) // polling a detached process's result
	}
	// Wait for the background sync to let go of its lock before the
	// temporary directories go.
	lk, err := memdir.AcquireLock(context.Background(), memsync.TeamState(filepath.Join(e.home, ".memdir"), "file://"+bare), time.Minute, "test")
	if err != nil {
		t.Fatal(err)
	}
	lk.Release()
	if out := e.run("", "context", "--no-instructions"); !strings.Contains(out, "[Kafka dashboards](reference_kafka_dashboards.md)") {
		t.Errorf("context after the sync:\n%s\nwant the team memory", out)
	}
}
