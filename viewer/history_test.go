package viewer

import (
	"html"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/typesx"
)

// TestHistoryAndRestore: with memory in git, a topic page lists its
// commits with their diffs, and restoring the first version brings its
// text back and commits the restore.
func TestHistoryAndRestore(t *testing.T) {
	gopts := memgit.Options{Getenv: func(k string) string {
		return map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
			"GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}[k]
	}}
	path := filepath.Join(t.TempDir(), "memory")
	d := memdir.Open(path, memdir.Live, memdir.WithCommitter(memdir.CommitFunc(func(c memdir.Change) error {
		return memgit.Policy{Git: true}.Record(path, gopts, c.Paths, c.Message)
	})))
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := memgit.Init(d.Path, gopts); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Add(memdir.AddRequest{Type: typesx.Project, Name: "Freeze", Text: "The merge freeze starts on Thursday."}); err != nil {
		t.Fatal(err)
	}
	f := serve(t, d)
	f.srv.opts.Git = gopts
	f.enter(t)
	const file = "project_freeze.md"
	orig, _ := f.file(t, file)
	edited := strings.Replace(orig, "Thursday", "Friday", 1)
	if code, body := f.post(t, "/p/p1/topic/"+file+"/edit", url.Values{"text": {edited}, "base": {sum([]byte(orig))}}); code != http.StatusSeeOther {
		t.Fatalf("edit: %d\n%s", code, body)
	}
	code, page := f.get(t, "/p/p1/topic/"+file)
	if code != http.StatusOK {
		t.Fatalf("topic: %d", code)
	}
	page = html.UnescapeString(page)
	revs := regexp.MustCompile(`name="rev" value="([0-9a-f]{40})"`).FindAllStringSubmatch(page, -1)
	if len(revs) != 2 || !strings.Contains(page, "-description: The merge freeze starts on Thursday.") || !strings.Contains(page, "+description: The merge freeze starts on Friday.") {
		t.Fatalf("history: %d commits, want 2 with the edit's diff:\n%s", len(revs), page)
	}
	first := revs[1][1] // newest first
	if code, body := f.post(t, "/p/p1/topic/"+file+"/restore", url.Values{"rev": {first}}); code != http.StatusSeeOther {
		t.Fatalf("restore: %d\n%s", code, body)
	}
	if got, _ := f.file(t, file); !strings.Contains(got, "description: The merge freeze starts on Thursday.") {
		t.Errorf("restore did not bring the first version back:\n%s", got)
	}
	r, err := memgit.Open(d.Path, gopts)
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.History(file, 1)
	if err != nil || len(h) != 1 || !strings.Contains(h[0].Subject, "restore "+file+" from "+first[:7]) {
		t.Errorf("last commit %+v, %v; want the restore", h, err)
	}
	// Forgotten, the topic's page still offers its history to restore.
	if code, _ := f.post(t, "/p/p1/topic/"+file+"/forget", url.Values{}); code != http.StatusSeeOther {
		t.Fatalf("forget: %d", code)
	}
	if code, page := f.get(t, "/p/p1/topic/"+file); code != http.StatusOK || !strings.Contains(page, "This topic was removed") {
		t.Errorf("removed topic page: %d\n%s", code, page)
	}
}

// TestProjectSwitcher: every project is listed, and each project's pages
// show its own memory.
func TestProjectSwitcher(t *testing.T) {
	d1 := memdir.Open(filepath.Join(t.TempDir(), "one"), memdir.Live)
	d2 := memdir.Open(filepath.Join(t.TempDir(), "two"), memdir.Live)
	for _, c := range []struct {
		d    *memdir.Dir
		name string
	}{{d1, "Alpha fact"}, {d2, "Beta fact"}} {
		if _, err := c.d.Add(memdir.AddRequest{Type: typesx.User, Name: c.name, Text: c.name + " text."}); err != nil {
			t.Fatal(err)
		}
	}
	f := serve(t, d1, d2)
	f.enter(t)
	resp, err := f.client.Get(f.base + "/switch?to=p2")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != "/p/p2/stream" {
		t.Fatalf("switch to %q", loc)
	}
	_, page := f.get(t, "/p/p2/stream")
	if !strings.Contains(page, "Beta fact") || strings.Contains(page, "Alpha fact") || !strings.Contains(page, `<option value="p1">/src/p1</option>`) {
		t.Errorf("p2's stream:\n%s", page)
	}
}
