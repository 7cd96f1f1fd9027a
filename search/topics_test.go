package search

import (
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
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// TestTopicsMatchIndex keeps one Topics open while memory changes in
// every way a file can, and checks after each change that its List and
// IndexState (what stats and timelines are made of) are what Index.List
// and Index.IndexState (which read every file) say, and that a call after
// no change read nothing.
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
	for _, st := range steps {
		st.change()
		gen, looks := tp.gen, tp.looks
		got, gotBad, err := tp.List()
		if err != nil {
			t.Fatalf("%s: Topics.List: %v", st.name, err)
		}
		want, wantBad, err := ix.List()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(shown(want), shown(got)); diff != "" || gotBad != wantBad {
			t.Errorf("%s: Topics.List differs from Index.List (%d unreadable, want %d) (-want +got):\n%s", st.name, gotBad, wantBad, diff)
		}
		sameJSON(t, st.name+": List", shown(want), shown(got))
		if got, want := tp.IndexState(), ix.IndexState(); got != want {
			t.Errorf("%s: Topics.IndexState = %+v, want %+v", st.name, got, want)
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

// shownTopic is what stats and timelines show of a topic: its
// frontmatter, which is what Topics keeps.
type shownTopic struct {
	File, Name, Description string
	Type                    typesx.Type
	Created, Modified       time.Time
	Private                 bool
	Expires                 string
}

func shown(topics []*memdir.Topic) []shownTopic {
	out := make([]shownTopic, len(topics))
	for i, t := range topics {
		out[i] = shownTopic{t.File, t.Name, t.Description, t.Type, t.Created, t.Modified, t.Private, t.Expires}
	}
	return out
}

// TestTopicsMissingDir: a directory that does not exist (yet) has no
// topics, as Index.List says, and its creation is seen.
func TestTopicsMissingDir(t *testing.T) {
	d := newDir(t, nil)
	if err := os.Remove(d.Path); err != nil {
		t.Fatal(err)
	}
	tp := OpenTopics(d)
	defer tp.Close()
	topics, _, err := tp.List()
	if err != nil || len(topics) != 0 {
		t.Fatalf("List of a missing directory = %d topics, %v; want none", len(topics), err)
	}
	writeFile(t, filepath.Join(d.Path, "user_role.md"), topicFile("user", "Role", "Who", "Engineer."))
	if topics, _, err = tp.List(); err != nil || len(topics) != 1 {
		t.Fatalf("List after the directory was made = %d topics, %v; want 1", len(topics), err)
	}
}

// TestTopicsConcurrent runs List and IndexState side by side while topics
// are written (go test -race checks the table's locking).
func TestTopicsConcurrent(t *testing.T) {
	d := newDir(t, map[string]string{"user_role.md": topicFile("user", "Role", "Who", "Engineer.")})
	tp := OpenTopics(d)
	defer tp.Close()
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := range 20 {
				if w == 0 {
					writeFile(t, filepath.Join(d.Path, "project_p"+string(rune('a'+i))+".md"), topicFile("project", "P", "D", "B."))
					continue
				}
				if _, _, err := tp.List(); err != nil {
					t.Error(err)
				}
				tp.IndexState()
			}
		})
	}
	wg.Wait()
	topics, _, err := tp.List()
	if err != nil || len(topics) != 21 {
		t.Fatalf("List after the writes = %d topics, %v; want 21", len(topics), err)
	}
}

// TestTopicsLoadAndClose: Load reads ahead, so the next call reads
// nothing; after Close, calls still see every change (without a watch).
func TestTopicsLoadAndClose(t *testing.T) {
	d := newDir(t, map[string]string{"user_role.md": topicFile("user", "Role", "Who", "Engineer.")})
	tp := OpenTopics(d)
	if err := tp.Load(); err != nil {
		t.Fatal(err)
	}
	gen := tp.gen
	if topics, _, err := tp.List(); err != nil || len(topics) != 1 {
		t.Fatalf("List after Load = %d topics, %v; want 1", len(topics), err)
	}
	if runtime.GOOS == "linux" && tp.gen != gen {
		t.Errorf("List after Load read the files again")
	}
	tp.Close()
	writeFile(t, filepath.Join(d.Path, "user_editor.md"), topicFile("user", "Editor", "Vim", "Vim."))
	if topics, _, err := tp.List(); err != nil || len(topics) != 2 {
		t.Fatalf("List after Close and an add = %d topics, %v; want 2", len(topics), err)
	}
	if tp.w != nil {
		t.Errorf("a closed Topics watches again")
	}
}

// sameJSON fails when want and got do not marshal to the same JSON (what
// memdir stats --json, timelines and the viewer show: time offsets included, which
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
