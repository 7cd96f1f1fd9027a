package watch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/memdir"
)

// within is how soon after a write MEMORY.md must be right.
const within = time.Second

// debounce is the tests' quiet period: shorter than the default, to leave
// the one-second deadline room on a loaded machine running -race. The
// default is what scripts/bench-watch measures.
const debounce = 100 * time.Millisecond

// topicText is a topic file as an agent writes it directly.
func topicText(name, desc, typ string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n---\n\nAbout " + name + ".\n"
}

// syncBuffer is a log stream the watcher's goroutine writes and the test
// reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// harness is a running watcher with channels for what it reports.
type harness struct {
	t       *testing.T
	d       *memdir.Dir
	reports chan Report
	changes chan memdir.Change
	log     *syncBuffer
}

// startWatch runs the watcher on a fresh memory directory that setup
// filled, and waits for its first, full reconciliation.
func startWatch(t *testing.T, setup map[string]string) *harness {
	t.Helper()
	return startWatchWith(t, setup, debounce)
}

// startWatchWith is startWatch with a quiet period of its own.
func startWatchWith(t *testing.T, setup map[string]string, debounce time.Duration) *harness {
	t.Helper()
	changes := make(chan memdir.Change, 1000)
	d := memdir.Open(t.TempDir(), memdir.Live, memdir.WithCommitter(memdir.CommitFunc(func(c memdir.Change) error { changes <- c; return nil })))
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, d: d, reports: make(chan Report, 1000), changes: changes, log: &syncBuffer{}}
	for f, text := range setup {
		h.write(f, text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Dir: d, Debounce: debounce, Log: h.log, OnReconcile: func(r Report) { h.reports <- r }})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	if r := h.next(5 * time.Second); r.Trigger != Start {
		t.Fatalf("first reconciliation: trigger %q, want %q", r.Trigger, Start)
	}
	return h
}

func (h *harness) path(rel string) string { return filepath.Join(h.d.Path, filepath.FromSlash(rel)) }

func (h *harness) write(rel, text string) {
	h.t.Helper()
	if err := os.MkdirAll(filepath.Dir(h.path(rel)), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(h.path(rel), []byte(text), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) read(rel string) string {
	h.t.Helper()
	data, err := os.ReadFile(h.path(rel))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(data)
}

// next waits for the next reconciliation.
func (h *harness) next(wait time.Duration) Report {
	h.t.Helper()
	select {
	case r := <-h.reports:
		if r.Err != nil {
			h.t.Fatalf("reconciliation failed: %v", r.Err)
		}
		return r
	case <-time.After(wait):
		h.t.Fatalf("no reconciliation within %s; log:\n%s", wait, h.log)
	}
	return Report{}
}

// waitIndex waits, until deadline, for a reconciliation after which
// MEMORY.md reads want.
func (h *harness) waitIndex(deadline time.Time, want string) {
	h.t.Helper()
	for {
		select {
		case r := <-h.reports:
			if r.Err != nil {
				h.t.Fatalf("reconciliation failed: %v", r.Err)
			}
			if got, _ := os.ReadFile(h.path(memdir.IndexFile)); string(got) == want {
				return
			}
		case <-time.After(time.Until(deadline)):
			got, _ := os.ReadFile(h.path(memdir.IndexFile))
			h.t.Fatalf("MEMORY.md not right in time:\n%s\nwant:\n%s\nlog:\n%s", got, want, h.log)
		}
	}
}

// sentinel writes one more topic file and returns the reconciliation that
// follows: anything the watcher still had pending would show up in it.
func (h *harness) sentinel() Report {
	h.t.Helper()
	h.write("reference_sentinel.md", topicText("Sentinel", "Marks the end of a test step", "reference"))
	return h.next(5 * time.Second)
}

func TestWatchKeepsIndexTrue(t *testing.T) {
	h := startWatch(t, nil)
	steps := []struct {
		name string
		do   func()
		want string
	}{{
		name: "agent writes a new topic file",
		do:   func() { h.write("feedback_testing.md", topicText("Testing policy", "Real database", "feedback")) },
		want: "- [Testing policy](feedback_testing.md) — Real database\n",
	}, {
		name: "vim saves through a swap file and a rename",
		do: func() {
			h.write("4913", "")
			must(t, os.Remove(h.path("4913")))
			must(t, os.Rename(h.path("feedback_testing.md"), h.path("feedback_testing.md~")))
			h.write(".feedback_testing.md.swp", topicText("Testing policy", "Real database, never mocks", "feedback"))
			must(t, os.Rename(h.path(".feedback_testing.md.swp"), h.path("feedback_testing.md")))
			must(t, os.Remove(h.path("feedback_testing.md~")))
		},
		want: "- [Testing policy](feedback_testing.md) — Real database, never mocks\n",
	}, {
		name: "an edit in place changes the description",
		do: func() {
			h.write("feedback_testing.md", topicText("Testing policy", "Mocks hid a broken migration", "feedback"))
		},
		want: "- [Testing policy](feedback_testing.md) — Mocks hid a broken migration\n",
	}, {
		name: "a rename takes the line along",
		do:   func() { must(t, os.Rename(h.path("feedback_testing.md"), h.path("feedback_db_tests.md"))) },
		want: "- [Testing policy](feedback_db_tests.md) — Mocks hid a broken migration\n",
	}, {
		name: "a delete drops the line",
		do:   func() { must(t, os.Remove(h.path("feedback_db_tests.md"))) },
		want: "",
	}}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			h.t = t
			start := time.Now()
			s.do()
			h.waitIndex(start.Add(within), s.want)
			t.Logf("index right after %s", time.Since(start).Round(time.Millisecond))
		})
	}
}

func TestWatchLeavesBrokenFileAlone(t *testing.T) {
	index := "- [Role](user_role.md) — Senior Go engineer\n"
	h := startWatch(t, map[string]string{memdir.IndexFile: index, "user_role.md": topicText("Role", "Senior Go engineer", "user")})
	broken := "---\nname: Role\ndescription: [half typed\n---\n\nStaff engineer now.\n"
	h.write("user_role.md", broken)
	r := h.next(within)
	if len(r.Result.Problems) != 1 || r.Result.Problems[0].File != "user_role.md" || r.Result.Problems[0].Kind != "frontmatter" {
		t.Fatalf("problems = %v, want one frontmatter problem in user_role.md", r.Result.Problems)
	}
	if got := h.read("user_role.md"); got != broken {
		t.Errorf("the broken file was rewritten:\n%s", got)
	}
	if got := h.read(memdir.IndexFile); got != index {
		t.Errorf("MEMORY.md changed:\n%s\nwant:\n%s", got, index)
	}
	if !strings.Contains(h.log.String(), "problem: user_role.md:") {
		t.Errorf("log stream does not report the file:\n%s", h.log)
	}
	if got := h.read(".memdir/" + LogName); !strings.Contains(got, "problem: user_role.md:") {
		t.Errorf("%s does not report the file:\n%s", LogName, got)
	}
	if len(h.changes) != 0 {
		t.Errorf("the committer was called for a broken file: %v", <-h.changes)
	}
}

func TestWatchBurstIsOneReconciliation(t *testing.T) {
	// The default quiet period: a stall inside the burst on a loaded
	// machine must not split it.
	h := startWatchWith(t, nil, DefaultDebounce)
	var want []string
	for i := range 100 {
		f := "project_note_" + string(rune('a'+i/10)) + string(rune('a'+i%10)) + ".md"
		h.write(f, topicText("Note "+f, "Burst note", "project"))
		want = append(want, f)
	}
	r := h.next(5 * time.Second)
	if diff := cmp.Diff(want, r.Files); diff != "" {
		t.Fatalf("files of the burst's reconciliation (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, r.Result.Added); diff != "" {
		t.Errorf("added (-want +got):\n%s", diff)
	}
	if got := strings.Count(h.read(memdir.IndexFile), "\n"); got != 100 {
		t.Errorf("MEMORY.md has %d lines, want 100", got)
	}
	if n := len(h.changes); n != 1 {
		t.Fatalf("the committer was called %d times for the burst, want 1", n)
	}
	if c := <-h.changes; c.Message != "watch: 100 added" || len(c.Paths) != 101 {
		t.Errorf("change = %q with %d paths, want %q with 101", c.Message, len(c.Paths), "watch: 100 added")
	}
	// The watcher's own write of MEMORY.md must not cause another round:
	// the next reconciliation is the sentinel's alone.
	if s := h.sentinel(); !cmp.Equal(s.Files, []string{"reference_sentinel.md"}) || len(s.Touched) != 0 {
		t.Errorf("after the burst: files %v, touched %v; want only the sentinel", s.Files, s.Touched)
	}
}

func TestWatchIgnoresNoise(t *testing.T) {
	h := startWatch(t, nil)
	for _, f := range []string{".memdir/dream-state.json", ".git/index", ".feedback_x.md.swp", ".feedback_x.md.swx",
		"feedback_x.md~", "4913", ".#feedback_x.md", "#feedback_x.md#", ".memdir-tmp-feedback_x.md-123", "MEMORY-project.md"} {
		h.write(f, "noise\n")
	}
	h.write(memdir.IndexFile, "# edited by hand\n")
	s := h.sentinel()
	if !cmp.Equal(s.Files, []string{"reference_sentinel.md"}) || len(s.Touched) != 0 {
		t.Errorf("files %v, touched %v; want only the sentinel", s.Files, s.Touched)
	}
}

func TestWatchNewDirectories(t *testing.T) {
	h := startWatch(t, nil)
	// Files written right after mkdir may land before the watch is added:
	// the walk of the new directory counts them.
	h.write("logs/2026/11/2026-11-22.md", "# 2026-11-22\n")
	h.write("logs/2026/11/2026-11-23.md", "# 2026-11-23\n")
	r := h.next(5 * time.Second)
	if diff := cmp.Diff([]string{"logs/2026/11/2026-11-22.md", "logs/2026/11/2026-11-23.md"}, r.Touched); diff != "" {
		t.Errorf("touched (-want +got):\n%s", diff)
	}
	h.write("logs/2026/11/2026-11-24.md", "# 2026-11-24\n")
	r = h.next(5 * time.Second)
	if diff := cmp.Diff([]string{"logs/2026/11/2026-11-24.md"}, r.Touched); diff != "" {
		t.Errorf("a later write in the new directory: touched (-want +got):\n%s", diff)
	}
	if c := lastChange(h); !cmp.Equal(c.Paths, []string{"logs/2026/11/2026-11-24.md"}) {
		t.Errorf("change paths %v, want the log file", c.Paths)
	}
}

func TestWatchRescansAfterDirectoryRename(t *testing.T) {
	h := startWatch(t, map[string]string{"archive/old/project_x.md": topicText("X", "Old", "project")})
	must(t, os.Rename(h.path("archive/old"), h.path("archive/older")))
	if r := h.next(5 * time.Second); r.Trigger != Rescan {
		t.Fatalf("trigger %q after a directory rename, want %q", r.Trigger, Rescan)
	}
	h.write("archive/older/project_y.md", topicText("Y", "New", "project"))
	r := h.next(5 * time.Second)
	if diff := cmp.Diff([]string{"archive/older/project_y.md"}, r.Touched); diff != "" {
		t.Errorf("touched after the rescan (-want +got):\n%s", diff)
	}
}

func TestWatchWaitsForRemovedDirectory(t *testing.T) {
	h := startWatch(t, nil)
	must(t, os.RemoveAll(h.d.Path))
	deadline := time.Now().Add(5 * time.Second)
	h.write("user_role.md", topicText("Role", "Back again", "user"))
	h.waitIndex(deadline, "- [Role](user_role.md) — Back again\n")
}

func lastChange(h *harness) memdir.Change {
	h.t.Helper()
	var c memdir.Change
	for n := len(h.changes); n > 0; n-- {
		c = <-h.changes
	}
	return c
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
