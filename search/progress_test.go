package search

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuildProgress checks that the first search, which builds the index
// from every file, reports each file once, and that a search that only
// updates the index reports nothing.
func TestBuildProgress(t *testing.T) {
	const n = 25
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("project_topic_%02d.md", i)] = topicFile("project", fmt.Sprintf("Topic %d", i), "a topic", fmt.Sprintf("Body %d mentions kafka.", i))
	}
	d := newDir(t, files)
	var calls [][2]int
	search := func() {
		t.Helper()
		ix := Open(d).WithProgress(func(done, total int) { calls = append(calls, [2]int{done, total}) })
		if _, err := ix.Search(context.Background(), Query{Text: "kafka", NoRecall: true}); err != nil {
			t.Fatal(err)
		}
	}
	search()
	var want [][2]int
	for i := 1; i <= n; i++ {
		want = append(want, [2]int{i, n})
	}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("first search's progress (-want +got):\n%s", diff)
	}
	calls = nil
	writeFile(t, filepath.Join(d.Path, "project_new.md"), topicFile("project", "New", "a topic", "kafka again"))
	search()
	if len(calls) != 0 {
		t.Errorf("a search that updates the index reported %v", calls)
	}
}
