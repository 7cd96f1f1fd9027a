package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/typesx"
)

// TestTopicsMatchIndex keeps one Topics open while memory changes in
// every way a file can, and checks after each change that its Stats and
// Timeline are what Index.Stats and Index.Timeline (which read every file)
// say, and that a call after no change read nothing.
func TestTopicsMatchIndex(t *testing.T) {
	old := "created: 2026-01-05T10:00:00Z\nmodified: 2026-01-05T10:00:00Z"
	d := newDir(t, map[string]string{
		"project_deploy.md":  topicFile("project", "Deploy", "How we deploy", "Canary first."),
		"user_role.md":       topicFile("user", "Role", "Who the user is", "A data engineer."),
		"feedback_mocks.md":  "---\nname: Mocks\ndescription: No mocks\ntype: feedback\n" + old + "\n---\n\nReal databases.\n",
		"reference_graf.md":  topicFile("reference", "Grafana", "Dashboards", "At grafana.internal.", "private: true"),
		"project_freeze.md":  topicFile("project", "Freeze", "Merge freeze", "Until Friday.", "expires: 2026-11-10"),
		"project_broken.md":  "---\nname: [unclosed\n---\nbody\n",
		"project_deploy2.md": topicFile("project", "deploy", "Same name, other case", "Twice."),
		"user_tz.md": "---\nname: Zones\ndescription: Stamps with offsets\ntype: user\n" +
			"created: 2026-11-20T10:04:05+01:00\nmodified: 2026-11-21T08:00:00.123456789-05:00\n---\n\nLocal times.\n",
	})
	ctx := context.Background()
	tp := OpenTopics(d)
	defer tp.Close()
	ix := Open(d)
	if _, err := ix.refresh(); err != nil { // a search index to report on
		t.Fatal(err)
	}
	write := func(name, content string) { writeFile(t, filepath.Join(d.Path, name), content) }
	steps := []struct {
		name   string
		change func()
	}{
		{"first call", func() {}},
		{"no change", func() {}},
		{"topic added", func() { write("user_editor.md", topicFile("user", "Editor", "Uses vim", "Always vim.")) }},
		{"topic edited in place", func() {
			f, err := os.OpenFile(filepath.Join(d.Path, "project_deploy.md"), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(topicFile("project", "Deploy", "How we ship", "Canary first.")); err != nil {
				t.Fatal(err)
			}
		}},
		{"topic made private", func() {
			write("user_role.md", topicFile("user", "Role", "Who the user is", "A data engineer.", "private: true"))
		}},
		{"topic broken", func() { write("user_editor.md", "---\nname: Editor\n") }},
		{"broken topic mended", func() { write("project_broken.md", topicFile("project", "Broken", "Mended", "Fine now.")) }},
		{"topic removed", func() {
			if err := os.Remove(filepath.Join(d.Path, "feedback_mocks.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"log entry", func() {
			e := dailylog.Entry{Type: typesx.Project, Title: "Note", Text: "The canary needs the VPN."}
			if _, err := dailylog.Append(d.Path, testNow.Add(-time.Hour), e); err != nil {
				t.Fatal(err)
			}
		}},
		{"many topics added", func() {
			for i := range 70 {
				write(fmt.Sprintf("reference_r%02d.md", i), topicFile("reference", fmt.Sprintf("R %d", 70-i), "Many", "Of them."))
			}
		}},
		{"index rebuilt", func() {
			if _, err := ix.refresh(); err != nil {
				t.Fatal(err)
			}
		}},
	}
	q := TimelineQuery{From: testNow.AddDate(0, -1, 0), To: testNow.Add(time.Hour), IncludePrivate: true}
	for _, st := range steps {
		st.change()
		gen, looks := tp.gen, tp.looks
		gotStats, err := tp.Stats(ctx, StatsOptions{})
		if err != nil {
			t.Fatalf("%s: Topics.Stats: %v", st.name, err)
		}
		wantStats, err := ix.Stats(ctx, StatsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantStats, gotStats); diff != "" {
			t.Errorf("%s: Topics.Stats differs from Index.Stats (-want +got):\n%s", st.name, diff)
		}
		sameJSON(t, st.name+": Stats", wantStats, gotStats)
		for _, private := range []bool{false, true} {
			q.IncludePrivate = private
			got, err := tp.Timeline(ctx, q)
			if err != nil {
				t.Fatalf("%s: Topics.Timeline: %v", st.name, err)
			}
			want, err := ix.Timeline(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: Topics.Timeline(private %v) differs from Index.Timeline (-want +got):\n%s", st.name, private, diff)
			}
			sameJSON(t, st.name+": Timeline", want, got)
		}
		if st.name == "first call" && tp.indexed != 1 {
			t.Errorf("first call: %d loads from the search index, want 1", tp.indexed)
		}
		if runtime.GOOS == "linux" && st.name == "no change" && tp.gen != gen {
			t.Errorf("%s: the table was refreshed (%d -> %d) though nothing changed", st.name, gen, tp.gen)
		}
		// A change to files alone is looked at file by file, not by
		// statting every file.
		if runtime.GOOS == "linux" && strings.HasPrefix(st.name, "topic ") && tp.looks != looks+1 {
			t.Errorf("%s: %d looks at named files, want %d", st.name, tp.looks, looks+1)
		}
	}
}

// TestTopicsMissingDir: a directory that does not exist (yet) has no
// topics, as Index.Stats says, and its creation is seen.
func TestTopicsMissingDir(t *testing.T) {
	d := newDir(t, nil)
	if err := os.Remove(d.Path); err != nil {
		t.Fatal(err)
	}
	tp := OpenTopics(d)
	defer tp.Close()
	ctx := context.Background()
	st, err := tp.Stats(ctx, StatsOptions{})
	if err != nil || st.Topics != 0 {
		t.Fatalf("Stats of a missing directory = %+v, %v; want no topics", st, err)
	}
	writeFile(t, filepath.Join(d.Path, "user_role.md"), topicFile("user", "Role", "Who", "Engineer."))
	if st, err = tp.Stats(ctx, StatsOptions{}); err != nil || st.Topics != 1 {
		t.Fatalf("Stats after the directory was made = %+v, %v; want 1 topic", st, err)
	}
}

// TestTopicsConcurrent runs Stats and Timeline side by side while topics
// are written (go test -race checks the table's locking).
func TestTopicsConcurrent(t *testing.T) {
	d := newDir(t, map[string]string{"user_role.md": topicFile("user", "Role", "Who", "Engineer.")})
	tp := OpenTopics(d)
	defer tp.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := range 20 {
				if w == 0 {
					writeFile(t, filepath.Join(d.Path, "project_p"+string(rune('a'+i))+".md"), topicFile("project", "P", "D", "B."))
					continue
				}
				if _, err := tp.Stats(ctx, StatsOptions{}); err != nil {
					t.Error(err)
				}
				if _, err := tp.Timeline(ctx, TimelineQuery{To: testNow}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	st, err := tp.Stats(ctx, StatsOptions{})
	if err != nil || st.Topics != 21 {
		t.Fatalf("Stats after the writes = %d topics, %v; want 21", st.Topics, err)
	}
}

// TestTopicsLoadAndClose: Load reads ahead, so the next call reads
// nothing; after Close, calls still see every change (without a watch).
func TestTopicsLoadAndClose(t *testing.T) {
	d := newDir(t, map[string]string{"user_role.md": topicFile("user", "Role", "Who", "Engineer.")})
	tp := OpenTopics(d)
	ctx := context.Background()
	if err := tp.Load(); err != nil {
		t.Fatal(err)
	}
	gen := tp.gen
	if st, err := tp.Stats(ctx, StatsOptions{}); err != nil || st.Topics != 1 {
		t.Fatalf("Stats after Load = %+v, %v; want 1 topic", st, err)
	}
	if runtime.GOOS == "linux" && tp.gen != gen {
		t.Errorf("Stats after Load read the files again")
	}
	tp.Close()
	writeFile(t, filepath.Join(d.Path, "user_editor.md"), topicFile("user", "Editor", "Vim", "Vim."))
	if st, err := tp.Stats(ctx, StatsOptions{}); err != nil || st.Topics != 2 {
		t.Fatalf("Stats after Close and an add = %+v, %v; want 2 topics", st, err)
	}
	if tp.w != nil {
		t.Errorf("a closed Topics watches again")
	}
}

// sameJSON fails when want and got do not marshal to the same JSON (what
// memdir stats --json and the viewer show: time offsets included, which
// cmp's time.Time comparison ignores).
func sameJSON(t *testing.T, what string, want, got any) {
	t.Helper()
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(w) != string(g) {
		t.Errorf("%s: JSON differs:\nwant %s\ngot  %s", what, w, g)
	}
}
