package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/memdir/memdir/memdir"
)

// start sets up fresh watches on every directory of the memory directory
// and on its parent (to see it removed, renamed or created), then
// reconciles everything. A memory directory that is missing is waited for.
func (w *watcher) start(trigger Trigger) error {
	if w.fw != nil {
		w.fw.Close()
	}
	fw, err := fsnotify.NewBufferedWatcher(1024)
	if err != nil {
		return fmt.Errorf("watch %s: %w", w.root, err)
	}
	w.fw = fw
	w.dirs = map[string]bool{}
	if err := fw.Add(w.parent); err != nil {
		return fmt.Errorf("watch %s: %w", w.parent, err)
	}
	if fi, err := os.Stat(w.root); err != nil || !fi.IsDir() {
		w.log.printf("%s is missing: waiting for it", w.root)
		return nil
	}
	if err := w.addTree(w.root, false); err != nil {
		return err
	}
	w.reconcile(trigger, memdir.ReconcileRequest{All: true, Touched: w.takeTouched(), What: "watch"})
	return nil
}

// takeTouched returns and clears the pending non-topic paths.
func (w *watcher) takeTouched() []string {
	var out []string
	for p := range w.touched {
		out = append(out, p)
	}
	clear(w.touched)
	return out
}

// addTree watches dir and every directory under it that is not ignored.
// With markFiles, the files found count as changed: they may have been
// written before the watch was in place.
func (w *watcher) addTree(dir string, markFiles bool) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while we walked
			}
			return fmt.Errorf("watch %s: %w", path, err)
		}
		rel := w.rel(path)
		if rel != "." && Ignored(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if err := w.fw.Add(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("watch %s: %w", path, err)
			}
			w.dirs[path] = true
			return nil
		}
		if markFiles {
			w.record(rel)
		}
		return nil
	})
}

// rel makes a path under the memory directory relative and
// slash-separated; "" when it is outside.
func (w *watcher) rel(path string) string {
	r, err := filepath.Rel(w.root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(r)
}

// event takes one fsnotify event into the pending burst. Its type is only
// a hint: the files it names are re-read when the burst is over.
func (w *watcher) event(ev fsnotify.Event) {
	if ev.Op == fsnotify.Chmod {
		return
	}
	if ev.Name == w.root {
		// The memory directory itself was created, removed or renamed.
		w.rescan = true
		w.arm()
		return
	}
	rel := w.rel(ev.Name)
	if rel == "" || rel == "." || Ignored(rel) || ownFile(rel) {
		return
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if err := w.addTree(ev.Name, true); err != nil {
				w.log.printf("%v: rescanning", err)
				w.rescan = true
			}
			w.arm()
			return
		}
	}
	switch {
	case ev.Has(fsnotify.Rename) && w.dirs[ev.Name]:
		// The watches under a moved directory still name the old path.
		w.rescan = true
	case ev.Has(fsnotify.Remove) && w.dirs[ev.Name]:
		// inotify dropped the watches; the files inside were reported.
		for d := range w.dirs {
			if d == ev.Name || strings.HasPrefix(d, ev.Name+string(filepath.Separator)) {
				delete(w.dirs, d)
			}
		}
	default:
		w.record(rel)
	}
	w.arm()
}

// record notes a changed path: a top-level topic file to re-read, or
// another path to pass on to the committer.
func (w *watcher) record(rel string) {
	switch {
	case !strings.Contains(rel, "/"):
		if memdir.IsTopicFile(rel) {
			w.files[rel] = true
		}
	default:
		w.touched[rel] = true
	}
}
