package search

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
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
	// scans counts searches that statted every file, looks those that
	// statted only the files the watcher named.
	step := func(what, text string, want []string, scans, looks int) {
		t.Helper()
		if got := find(text); !cmp.Equal(got, want) {
			t.Fatalf("%s: search %q = %v, want %v", what, text, got, want)
		}
		if l.scans != scans || l.looks != looks {
			t.Fatalf("%s: %d scans and %d looks, want %d and %d", what, l.scans, l.looks, scans, looks)
		}
	}
	step("first search", "canary", []string{"project_deploy.md"}, 1, 0)
	step("no change", "engineer", []string{"user_role.md"}, 1, 0)
	step("no change again", "canary", []string{"project_deploy.md"}, 1, 0)

	f, err := os.OpenFile(filepath.Join(d.Path, "user_role.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("Rides a zebra to work.\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	step("edit in place", "zebra", []string{"user_role.md"}, 1, 1)
	step("after the edit", "zebra", []string{"user_role.md"}, 1, 1)

	writeFile(t, filepath.Join(d.Path, "reference_dash.md"), topicFile("reference", "Dashboard", "Where graphs live", "The zebra dashboard."))
	step("new file", "dashboard", []string{"reference_dash.md"}, 1, 2)

	if err := os.Remove(filepath.Join(d.Path, "user_role.md")); err != nil {
		t.Fatal(err)
	}
	step("removed file", "zebra", []string{"reference_dash.md"}, 1, 3)

	writeFile(t, filepath.Join(d.Path, "logs", "2026", "11", "2026-11-19.md"), "# 2026-11-19\n\n- 16:00 [project] VPN: the staging deploy needs the okapi VPN.\n")
	step("new daily log in new directories", "okapi", []string{"logs/2026/11/2026-11-19.md"}, 2, 3)
	writeFile(t, filepath.Join(d.Path, "logs", "2026", "11", "2026-11-20.md"), "# 2026-11-20\n\n- 09:00 [project] Lemur: a lemur entry.\n")
	step("new log in a watched log directory", "lemur", []string{"logs/2026/11/2026-11-20.md"}, 2, 4)

	if err := os.RemoveAll(filepath.Join(d.Path, ".memdir")); err != nil {
		t.Fatal(err)
	}
	step("state directory removed: memory did not change", "canary", []string{"project_deploy.md"}, 2, 4)
	writeFile(t, filepath.Join(d.Path, "project_deploy.md"), topicFile("project", "Deploy", "How we deploy", "Deploys go through the tapir."))
	step("edit after the state directory went", "tapir", []string{"project_deploy.md"}, 2, 5)
	step("quiet again", "tapir", []string{"project_deploy.md"}, 2, 5)

	// Another process edits a topic in place and exits; the very next
	// search sees it, with no wait in between.
	cmd := exec.Command("sh", "-c", `printf 'The okapi rota moved.\n' >> "$1"`, "sh", filepath.Join(d.Path, "project_deploy.md"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sh: %v: %s", err, out)
	}
	step("edit by another process", "rota", []string{"project_deploy.md"}, 2, 6)

	// The memory directory removed and made again (a new inode, which
	// the old watch does not see): watched again.
	if err := os.RemoveAll(d.Path); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(d.Path, "project_deploy.md"), topicFile("project", "Deploy", "How we deploy", "Deploys go through the gecko."))
	step("directory made again", "gecko", []string{"project_deploy.md"}, 3, 6)
	writeFile(t, filepath.Join(d.Path, "project_deploy.md"), topicFile("project", "Deploy", "How we deploy", "Deploys go through the heron."))
	step("edit in the directory made again", "heron", []string{"project_deploy.md"}, 3, 7)
}

// TestLiveWritesNothing checks that warm searches write nothing into the
// memory directory, not even under .memdir/, and that the recall counts
// they gather reach the recall file when the index is closed.
func TestLiveWritesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Live watches with inotify on Linux alone")
	}
	d := newDir(t, map[string]string{
		"project_deploy.md": topicFile("project", "Deploy", "How we deploy", "Deploys go through the canary."),
	})
	l := OpenLive(d)
	ctx := context.Background()
	if _, err := l.Search(ctx, Query{Text: "canary", NoRecall: true}); err != nil {
		t.Fatal(err)
	}
	before := treeStamps(t, d.Path)
	for range 5 {
		hits, err := l.Search(ctx, Query{Text: "canary"})
		if err != nil || len(hits) != 1 {
			t.Fatalf("Search = %v, %v; want the deploy topic", hits, err)
		}
	}
	if after := treeStamps(t, d.Path); !cmp.Equal(after, before) {
		t.Fatalf("warm searches changed the memory directory:\n%s", cmp.Diff(before, after))
	}
	if l.scans != 1 {
		t.Fatalf("%d scans, want 1", l.scans)
	}
	l.Recall("project_deploy.md") // a show
	if after := treeStamps(t, d.Path); !cmp.Equal(after, before) {
		t.Fatalf("a recall changed the memory directory:\n%s", cmp.Diff(before, after))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := Open(d).loadRecalls()["project_deploy.md"].count; got != 6 {
		t.Fatalf("recalls after Close = %d, want 6", got)
	}
}

// treeStamps is every path under dir with its size and modification time.
func treeStamps(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		out[p] = fmt.Sprintf("%d %s", fi.Size(), fi.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLiveConcurrent runs searches and recalls side by side (for -race):
// every count reaches the recall file at Close.
func TestLiveConcurrent(t *testing.T) {
	d := newDir(t, map[string]string{
		"project_deploy.md": topicFile("project", "Deploy", "How we deploy", "Deploys go through the canary."),
	})
	l := OpenLive(d)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				if _, err := l.Search(context.Background(), Query{Text: "canary"}); err != nil {
					t.Error(err)
				}
				l.Recall("project_deploy.md")
			}
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := Open(d).loadRecalls()["project_deploy.md"].count; got != 40 {
		t.Fatalf("recalls after Close = %d, want 40", got)
	}
}

// TestLiveLooksMatchRebuild checks the searches that look only at the
// files the watcher named: after each of many random adds, in-place
// edits, atomic rewrites, removals and log appends, the index a Live
// holds has the same live documents and average lengths as one built
// from the files from nothing.
func TestLiveLooksMatchRebuild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Live watches with inotify on Linux alone")
	}
	logRel := "logs/2026/11/2026-11-20.md"
	d := newDir(t, map[string]string{
		"project_a.md": topicFile("project", "A", "First", "Alpha words."),
		logRel:         "# 2026-11-20\n\n- 09:00 [project] First entry\n",
	})
	l := OpenLive(d)
	defer l.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	names := []string{"project_a.md"}
	for step := range 60 {
		switch op := rng.IntN(5); {
		case op == 0 || len(names) == 0:
			n := fmt.Sprintf("reference_t%d.md", step)
			writeFile(t, filepath.Join(d.Path, n), topicFile("reference", fmt.Sprintf("T%d", step), "Added", fmt.Sprintf("Body %d with okapi words.", step)))
			names = append(names, n)
		case op == 1:
			f, err := os.OpenFile(filepath.Join(d.Path, names[rng.IntN(len(names))]), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "More words %d, a longer body.\n", step)
			f.Close()
		case op == 2:
			n := names[rng.IntN(len(names))]
			tmp := filepath.Join(d.Path, ".tmp-rewrite")
			writeFile(t, tmp, topicFile("project", "Rewritten "+n, "Saved whole", fmt.Sprintf("Rewritten at step %d.", step)))
			if err := os.Rename(tmp, filepath.Join(d.Path, n)); err != nil {
				t.Fatal(err)
			}
		case op == 3:
			i := rng.IntN(len(names))
			if err := os.Remove(filepath.Join(d.Path, names[i])); err != nil {
				t.Fatal(err)
			}
			names = append(names[:i], names[i+1:]...)
		default:
			f, err := os.OpenFile(filepath.Join(d.Path, filepath.FromSlash(logRel)), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "- 10:%02d [project] Entry %d\n", step%60, step)
			f.Close()
		}
		if _, err := l.Search(ctx, Query{Text: "words", NoRecall: true}); err != nil {
			t.Fatal(err)
		}
		want, err := Open(d).build()
		if err != nil {
			t.Fatal(err)
		}
		gotDocs, gotN, gotAvg := liveDocs(newView(l.cur))
		wantDocs, wantN, wantAvg := liveDocs(newView(want))
		if diff := cmp.Diff(wantDocs, gotDocs); diff != "" || gotN != wantN || gotAvg != wantAvg {
			t.Fatalf("step %d: Live's index differs from a rebuild (-rebuild +live):\n%s\nlive %d avg %v, rebuild %d avg %v", step, diff, gotN, gotAvg, wantN, wantAvg)
		}
	}
	if l.looks == 0 || l.scans > 2 {
		t.Fatalf("%d looks and %d scans: the searches did not look at named files alone", l.looks, l.scans)
	}
}

// TestLiveLoad checks that Load brings the index up before any search
// (the search after it scans nothing more), and that a query that does
// not read costs no rescan of the next search.
func TestLiveLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Live watches with inotify on Linux alone")
	}
	d := newDir(t, map[string]string{"project_deploy.md": topicFile("project", "Deploy", "How we deploy", "Canary first.")})
	l := OpenLive(d)
	defer l.Close()
	if err := l.Load(); err != nil {
		t.Fatal(err)
	}
	if l.scans != 1 || l.cur == nil {
		t.Fatalf("after Load: %d scans, index loaded %v; want 1 and true", l.scans, l.cur != nil)
	}
	ctx := context.Background()
	if hits, err := l.Search(ctx, Query{Text: "canary", NoRecall: true}); err != nil || len(hits) != 1 {
		t.Fatalf("Search = %v, %v", hits, err)
	}
	if _, err := l.Search(ctx, Query{Text: "\x01", NoRecall: true}); err == nil {
		t.Fatal("a control character was accepted")
	}
	if hits, err := l.Search(ctx, Query{Text: "canary", NoRecall: true}); err != nil || len(hits) != 1 {
		t.Fatalf("Search = %v, %v", hits, err)
	}
	if l.scans != 1 {
		t.Fatalf("%d scans, want 1: Load's scan served every search, the refused query included", l.scans)
	}
}
