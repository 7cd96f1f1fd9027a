package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLive checks that a Live index answers every search as a fresh
// process would, after edits in place, creations, removals, a new daily
// log and the loss of its own state directory, and that it skips the
// scan when nothing changed.
func TestLive(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Live watches with inotify on Linux alone")
	}
	d := newDir(t, map[string]string{
		"project_deploy.md": topicFile("project", "Deploy", "How we deploy", "Deploys go through the canary."),
		"user_role.md":      topicFile("user", "Role", "Who the user is", "A data engineer."),
	})
	l := OpenLive(d)
	defer l.Close()
	ctx := context.Background()
	find := func(text string) []string {
		t.Helper()
		hits, err := l.Search(ctx, Query{Text: text, NoRecall: true})
		if err != nil {
			t.Fatalf("Search(%q): %v", text, err)
		}
		out := []string{}
		for _, h := range hits {
			out = append(out, h.File)
		}
		return out
	}
	step := func(what, text string, want []string, scans int) {
		t.Helper()
		if got := find(text); !cmp.Equal(got, want) {
			t.Fatalf("%s: search %q = %v, want %v", what, text, got, want)
		}
		if l.scans != scans {
			t.Fatalf("%s: %d scans, want %d", what, l.scans, scans)
		}
	}
	step("first search", "canary", []string{"project_deploy.md"}, 1)
	step("no change", "engineer", []string{"user_role.md"}, 1)
	step("no change again", "canary", []string{"project_deploy.md"}, 1)

	f, err := os.OpenFile(filepath.Join(d.Path, "user_role.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("Rides a zebra to work.\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	step("edit in place", "zebra", []string{"user_role.md"}, 2)
	step("after the edit", "zebra", []string{"user_role.md"}, 2)

	writeFile(t, filepath.Join(d.Path, "reference_dash.md"), topicFile("reference", "Dashboard", "Where graphs live", "The zebra dashboard."))
	step("new file", "dashboard", []string{"reference_dash.md"}, 3)

	if err := os.Remove(filepath.Join(d.Path, "user_role.md")); err != nil {
		t.Fatal(err)
	}
	step("removed file", "zebra", []string{"reference_dash.md"}, 4)

	writeFile(t, filepath.Join(d.Path, "logs", "2026", "11", "2026-11-19.md"), "# 2026-11-19\n\n- 16:00 [project] VPN: the staging deploy needs the okapi VPN.\n")
	step("new daily log in new directories", "okapi", []string{"logs/2026/11/2026-11-19.md"}, 5)
	writeFile(t, filepath.Join(d.Path, "logs", "2026", "11", "2026-11-20.md"), "# 2026-11-20\n\n- 09:00 [project] Lemur: a lemur entry.\n")
	step("new log in a watched log directory", "lemur", []string{"logs/2026/11/2026-11-20.md"}, 6)

	if err := os.RemoveAll(filepath.Join(d.Path, ".memdir")); err != nil {
		t.Fatal(err)
	}
	step("state directory removed", "canary", []string{"project_deploy.md"}, 7)
	writeFile(t, filepath.Join(d.Path, "project_deploy.md"), topicFile("project", "Deploy", "How we deploy", "Deploys go through the tapir."))
	step("edit after the watches were set again", "tapir", []string{"project_deploy.md"}, 8)
	step("quiet again", "tapir", []string{"project_deploy.md"}, 8)
}
