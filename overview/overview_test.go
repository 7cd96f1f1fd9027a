package overview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/typesx"
)

var testNow = time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)

func topicFile(typ, name, stamp string, extra ...string) string {
	fm := fmt.Sprintf("---\nname: %s\ndescription: About %s\ntype: %s\ncreated: %s\nmodified: %s\n", name, name, typ, stamp, stamp)
	for _, e := range extra {
		fm += e + "\n"
	}
	return fm + "---\n\nBody of " + name + ".\n"
}

// newDir makes a memory directory of a few topics in every state stats
// counts, a log entry and a built search index.
func newDir(t *testing.T) *memdir.Dir {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"project_deploy.md":             topicFile("project", "Deploy", "2026-11-20T10:00:00Z"),
		"feedback_mocks.md":             topicFile("feedback", "Mocks", "2026-01-05T10:00:00Z"),
		"reference_graf.md":             topicFile("reference", "Grafana", "2026-11-21T09:00:00Z", "private: true"),
		"project_freeze.md":             topicFile("project", "Freeze", "2026-11-01T10:00:00Z", "expires: 2026-11-10"),
		"project_broken.md":             "---\nname: [unclosed\n---\nbody\n",
		"project_x.conflict-0a1b2c3.md": topicFile("project", "Copy", "2026-11-20T10:00:00Z"),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := dailylog.Entry{Type: typesx.Project, Title: "Note", Text: "The canary\nneeds the VPN."}
	if _, err := dailylog.Append(dir, testNow.Add(-time.Hour), e); err != nil {
		t.Fatal(err)
	}
	d := memdir.Open(dir, memdir.Live)
	d = d.With(memdir.WithClock(func() time.Time { return testNow }))
	if _, err := search.Open(d).Search(context.Background(), search.Query{Text: "deploy", NoRecall: true}); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEitherSource: stats and timelines read through a watched topics
// table (the viewer) are what they are read from the files (the CLI),
// down to the JSON, and they count what the directory holds.
func TestEitherSource(t *testing.T) {
	d := newDir(t)
	ctx := context.Background()
	tp := search.OpenTopics(d)
	defer tp.Close()
	files := Reader{Dir: d}
	table := Reader{Dir: d, Source: tp}
	q := TimelineQuery{From: testNow.AddDate(0, -1, 0), To: testNow, IncludePrivate: true}
	for range 2 { // the second call answers from the table unchanged
		// The table first: its first load brings the search index up to
		// date, which the files' reading then sees as it is.
		got, err := table.Stats(ctx, StatsOptions{Schedule: "0 3 * * *"})
		if err != nil {
			t.Fatal(err)
		}
		want, err := files.Stats(ctx, StatsOptions{Schedule: "0 3 * * *"})
		if err != nil {
			t.Fatal(err)
		}
		same(t, "Stats", want, got)
		if want.Topics != 4 || want.Private != 1 || want.Expired != 1 || want.Unreadable != 1 || want.LogPending != 1 ||
			len(want.Stale) != 1 || want.Stale[0].File != "feedback_mocks.md" || !want.Search.Built || want.NextDream == nil {
			t.Errorf("Stats = %+v; want 4 topics (1 private, 1 expired), 1 unreadable, 1 log entry pending, feedback_mocks.md stale, an index, a next dream", want)
		}
		wantTL, err := files.Timeline(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		gotTL, err := table.Timeline(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "Timeline", wantTL, gotTL)
		var kinds []string
		for _, e := range wantTL.Events {
			kinds = append(kinds, e.Kind+" "+e.File)
		}
		wantKinds := []string{"created project_freeze.md", "created project_deploy.md", "created reference_graf.md", "log " + wantTL.Events[3].File}
		if diff := cmp.Diff(wantKinds, kinds); diff != "" || wantTL.Source != "stamps" || wantTL.Events[3].Text != "The canary needs the VPN." {
			t.Errorf("Timeline from %s (-want +got):\n%s\n%+v", wantTL.Source, diff, wantTL.Events)
		}
	}
}

// TestClock: the clock is the git options' Now, else the directory's.
func TestClock(t *testing.T) {
	d := newDir(t)
	r := Reader{Dir: d}
	if got := r.now(); !got.Equal(testNow) {
		t.Errorf("now = %v, want the directory's %v", got, testNow)
	}
	later := testNow.AddDate(1, 0, 0)
	r.Git.Now = func() time.Time { return later }
	if got := r.now(); !got.Equal(later) {
		t.Errorf("now = %v, want the git options' %v", got, later)
	}
}

// same fails when want and got differ, or marshal to different JSON
// (time offsets included, which cmp's time.Time comparison ignores).
func same(t *testing.T, what string, want, got any) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s through Topics differs (-want +got):\n%s", what, diff)
	}
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) {
		t.Errorf("%s: JSON differs:\nwant %s\ngot  %s", what, w, g)
	}
}
