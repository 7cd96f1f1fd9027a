package search

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/memdir/memdir/memdir"
)

// barrierPrefix names the files a search creates (and removes) in the
// search state directory to learn that the watcher has taken every event
// queued before: inotify keeps one queue, in order, for all of a
// watcher's directories. Each name is new, so an event left from an older
// barrier never releases a newer one; a file a killed process left is a
// temp file cleanTemps removes.
const barrierPrefix = tempPrefix + "barrier-"

// barrierWait is how long a search waits for its barrier before it
// stops trusting the watcher and stats every file.
const barrierWait = 2 * time.Second

// Live is the index for a long-running process such as the MCP server.
// It keeps what the last search loaded and watches the memory directory
// (inotify, on Linux): a search that follows no change answers from
// memory without reading the index or statting every memory file. Before
// trusting "no change" it creates a file of its own (a barrier) and waits
// for that event, so every change made before the search (by an agent, a
// person or another memdir) has been seen. Any change, a watch it could not set, a
// lost event or a slow barrier makes the next search scan as a fresh
// process does. Elsewhere Live searches as Index does.
type Live struct {
	ix *Index

	mu  sync.Mutex // one search at a time
	w   *fsnotify.Watcher
	cur *current

	ev      sync.Mutex // guards the fields below, set by the event loop
	dirty   bool
	stale   bool          // the watches no longer cover the directory
	barrier string        // the barrier file a search waits for
	waiting chan struct{} // closed when its creation is seen

	n     int // barriers made (under mu)
	scans int // searches that read the index and statted the files (under mu)
}

// OpenLive returns a Live index of a memory directory. Close it to stop
// watching.
func OpenLive(d *memdir.Dir) *Live { return &Live{ix: Open(d), dirty: true} }

// Close stops the watcher.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		return nil
	}
	err := l.w.Close()
	l.w, l.cur = nil, nil
	return err
}

// Search runs a query as Index.Search does.
func (l *Live) Search(ctx context.Context, q Query) ([]Hit, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if runtime.GOOS != "linux" || !l.ix.dir.Exists() {
		return l.ix.Search(ctx, q)
	}
	l.watch()
	if l.cur != nil && l.w != nil && l.clean() {
		return l.ix.searchIn(ctx, q, func() (*current, error) { return l.cur, nil })
	}
	l.setDirty(false)
	return l.ix.searchIn(ctx, q, func() (*current, error) {
		l.scans++
		cur, err := l.ix.refresh()
		l.cur = cur
		if err != nil || cur == nil {
			l.setDirty(true)
		}
		return cur, err
	})
}

// watch starts the watcher and watches every directory that holds
// memory, when it is not running.
func (l *Live) watch() {
	l.ev.Lock()
	stale := l.stale
	l.stale = false
	l.ev.Unlock()
	if l.w != nil && stale {
		l.w.Close()
		l.w = nil
	}
	if l.w != nil {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return
	}
	state := filepath.Join(l.ix.dir.Path, filepath.FromSlash(StateDir))
	if os.MkdirAll(state, 0o755) != nil || w.Add(state) != nil {
		w.Close()
		return
	}
	l.w, l.cur = w, nil
	l.setDirty(true)
	go l.loop(w, state)
	if err := l.addTree(w, l.ix.dir.Path); err != nil {
		w.Close() // a directory it cannot watch: stat every file instead
		l.w = nil
	}
}

// addTree watches dir and, under the logs directory, every directory
// below it.
func (l *Live) addTree(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			return nil
		case p != dir && (strings.HasPrefix(d.Name(), ".") || p != filepath.Join(l.ix.dir.Path, memdir.LogsDir) && !l.underLogs(p)):
			return filepath.SkipDir
		}
		return w.Add(p)
	})
}

func (l *Live) underLogs(p string) bool {
	return strings.HasPrefix(p, filepath.Join(l.ix.dir.Path, memdir.LogsDir)+string(filepath.Separator))
}

// loop takes the watcher's events: the barrier's releases a waiting
// search, anything else in the memory directory marks the index dirty.
func (l *Live) loop(w *fsnotify.Watcher, state string) {
	for {
		select {
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			switch {
			case filepath.Dir(ev.Name) == state && strings.HasPrefix(filepath.Base(ev.Name), barrierPrefix):
				l.ev.Lock()
				if l.waiting != nil && ev.Name == l.barrier && ev.Has(fsnotify.Create) {
					close(l.waiting)
					l.waiting = nil
				}
				l.ev.Unlock()
			case ev.Name == l.ix.dir.Path || ev.Name == state || ev.Name == filepath.Dir(state):
				// A watched directory itself was removed or renamed:
				// start again.
				l.ev.Lock()
				l.dirty, l.stale = true, true
				l.ev.Unlock()
			case filepath.Dir(ev.Name) == state:
				// The index's own files: not memory.
			default:
				if ev.Has(fsnotify.Create) && (ev.Name == filepath.Join(l.ix.dir.Path, memdir.LogsDir) || l.underLogs(ev.Name)) {
					if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
						if err := l.addTree(w, ev.Name); err != nil {
							l.setStale()
						}
					}
				}
				l.setDirty(true)
			}
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
			l.setDirty(true) // a lost event (queue overflow) or a failed watch
		}
	}
}

// clean reports whether nothing changed since the last scan, after the
// barrier: every event queued before it has been taken.
func (l *Live) clean() bool {
	l.n++
	name := filepath.Join(l.ix.dir.Path, filepath.FromSlash(StateDir), fmt.Sprintf("%s%d-%d", barrierPrefix, os.Getpid(), l.n))
	done := make(chan struct{})
	l.ev.Lock()
	l.barrier, l.waiting = name, done
	l.ev.Unlock()
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		l.setStale()
		return false
	}
	f.Close()
	defer os.Remove(name)
	select {
	case <-done:
	case <-time.After(barrierWait):
		l.setStale() // the watches are gone: watch again
		return false
	}
	l.ev.Lock()
	defer l.ev.Unlock()
	return !l.dirty
}

func (l *Live) setStale() {
	l.ev.Lock()
	l.dirty, l.stale = true, true
	l.ev.Unlock()
}

func (l *Live) setDirty(v bool) {
	l.ev.Lock()
	l.dirty = v
	l.ev.Unlock()
}
