package watch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fsnotify/fsnotify"

	"github.com/memdir/memdir/memdir"
)

// TestOverflowRescans drives the watcher's state by hand: events the
// kernel dropped are never seen, and an overflow error must bring a full
// reconciliation that finds what they would have said.
func TestOverflowRescans(t *testing.T) {
	d := memdir.Open(t.TempDir(), memdir.Live)
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	var reports []Report
	w, err := newWatcher(Options{Dir: d, LogFile: "-", OnReconcile: func(r Report) { reports = append(reports, r) }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if err := w.start(Start); err != nil {
		t.Fatal(err)
	}
	text := "---\nname: Lost\ndescription: Written while events were lost\ntype: project\n---\n"
	if err := os.WriteFile(filepath.Join(d.Path, "project_lost.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	w.fsError(fsnotify.ErrEventOverflow)
	w.flush()
	if len(reports) != 2 {
		t.Fatalf("%d reconciliations, want 2 (start, rescan)", len(reports))
	}
	r := reports[1]
	if r.Trigger != Rescan || len(r.Result.Added) != 1 || r.Result.Added[0] != "project_lost.md" {
		t.Errorf("after an overflow: trigger %q, added %v; want a rescan that adds project_lost.md", r.Trigger, r.Result.Added)
	}
}
