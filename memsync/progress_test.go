package memsync

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestSyncProgress checks the steps a sync reports: every file merged,
// every file pushed and every file written into memory, each once, with
// the count ending at the total.
func TestSyncProgress(t *testing.T) {
	const topics = 30
	url := "file://" + bareRemote(t)
	a, c := newMachine(t, url), newMachine(t, url)
	writeTopics(t, a, "topic", topics)
	files, err := filepath.Glob(filepath.Join(a.mem, "*.md"))
	if err != nil || len(files) != topics+1 {
		t.Fatalf("memory holds %d files (%v), want %d", len(files), err, topics+1)
	}
	for _, tc := range []struct {
		name           string
		m              *machine
		pushed, pulled int
	}{
		{"first machine pushes", a, topics + 1, 0},
		{"second machine pulls", c, 0, topics + 1},
		{"again, nothing to push or pull", a, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls [][2]int
			res, err := Sync(context.Background(), Options{Home: tc.m.home, Projects: []Project{{Dir: tc.m.mem, Root: tc.m.root}},
				LockTimeout: 10 * time.Second, Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
			if err != nil {
				t.Fatal(err)
			}
			var pushed, pulled int
			for _, p := range res.Projects {
				pushed, pulled = pushed+len(p.Pushed), pulled+len(p.Pulled)
			}
			if pushed != tc.pushed || pulled != tc.pulled {
				t.Fatalf("pushed %d, pulled %d; want %d, %d", pushed, pulled, tc.pushed, tc.pulled)
			}
			if len(calls) == 0 && tc.pushed+tc.pulled == 0 {
				return // decided by the stat caches: no file merged
			}
			steps, last := 0, [2]int{}
			for _, c := range calls {
				switch {
				case c[0] == last[0]+1:
					steps++
				case c[0] != last[0]:
					t.Fatalf("progress went from %v to %v", last, c)
				}
				if c[0] > c[1] {
					t.Fatalf("progress %v: done over total", c)
				}
				last = c
			}
			// Every file of either side is merged; pushed and pulled
			// files take a step more each.
			if want := topics + 1 + tc.pushed + tc.pulled; steps != want || last != [2]int{want, want} {
				t.Errorf("%d steps, last call %v; want %d steps ending at %d/%d", steps, last, want, want, want)
			}
		})
	}
}
