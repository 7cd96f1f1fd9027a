package search

import (
	"context"
	"sync"
	"time"

	"github.com/memdir/memdir/memdir"
)

// RecallFlushEvery is how often, at most, a Live index writes the recall
// counts its searches gathered; Close writes what is left.
const RecallFlushEvery = 30 * time.Second

// Live is the index for a long-running process such as the MCP server.
// It keeps what the last search loaded and watches the memory directory
// (inotify, on Linux): a search that follows no change answers from
// memory, without reading the index or statting every memory file, and
// without writing anything; one that follows changes to files the watcher
// can name looks at those files alone. Before trusting "no change" it reads every
// event the kernel queued for its watches, without waiting: a change that
// finished before the search began (by an agent, a person or another
// process) is among them. A change to a directory rather than a file, a
// watch it could not set or a lost event makes the search scan as a
// fresh process does. Elsewhere Live
// searches as Index does.
//
// Recall counts are kept in memory and written to .memdir/search/recalls
// at most every RecallFlushEvery, and by Close.
type Live struct {
	ix *Index

	mu  sync.Mutex // one search at a time
	w   *watcher   // nil: not watching
	cur *current

	recalls   map[string]recall // the counts on disk when last read, plus pending
	pending   map[string]recall // counted since the last flush
	flushedAt time.Time         // wall clock of the last flush
	scans     int               // searches that read the index and statted the files
	looks     int               // searches that statted only the files the watcher named
}

// OpenLive returns a Live index of a memory directory. Close it to stop
// watching and write the recall counts.
func OpenLive(d *memdir.Dir) *Live { return &Live{ix: Open(d), flushedAt: time.Now()} }

// WithSemantic makes the live index's searches fuse sem's ranking with
// the lexical one (Index.WithSemantic), and returns it. Call it before
// the first search.
func (l *Live) WithSemantic(sem Semantic) *Live {
	l.ix.WithSemantic(sem)
	return l
}

// Close stops watching and writes the pending recall counts.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.flush()
	if l.w != nil {
		l.w.close()
		l.w, l.cur = nil, nil
	}
	return err
}

// Search runs a query as Index.Search does.
func (l *Live) Search(ctx context.Context, q Query) ([]Hit, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ix.dir.Exists() {
		return l.ix.Search(ctx, q)
	}
	loadFailed := false
	load := func() (*current, error) {
		cur, err := l.current()
		loadFailed = err != nil
		return cur, err
	}
	hits, files, err := l.ix.searchIn(ctx, q, load, l.counts)
	if err != nil {
		if loadFailed {
			l.cur = nil // scan again next time
		}
		return nil, err
	}
	if !q.NoRecall && len(files) > 0 {
		l.recall(files)
	}
	if time.Since(l.flushedAt) >= RecallFlushEvery {
		_ = l.flush() // counting is a nicety: never fail a search for it
	}
	return hits, nil
}

// Load brings the index in memory up to date now (and starts watching),
// so that the next search need not wait for it: a viewer calls it while
// the person's browser opens.
func (l *Live) Load() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ix.dir.Exists() {
		return nil
	}
	if _, err := l.current(); err != nil {
		l.cur = nil
		return err
	}
	return nil
}

// current is the index as it is now: the one in memory when the watcher
// saw no change, else brought up to date by looking at the files the
// watcher named, else by a scan of every file.
func (l *Live) current() (*current, error) {
	fresh, paths := l.fresh()
	var err error
	switch {
	case fresh:
		return l.cur, nil
	case paths != nil:
		l.looks++
		l.cur, err = l.ix.refreshPaths(l.cur, paths)
	default:
		l.scans++
		l.cur, err = l.ix.refresh()
	}
	return l.cur, err
}

// fresh reports whether the index in memory still reflects every file
// (the watcher runs and saw no change since the last scan), and when it
// does not, the files the watcher saw touched, if it can name them all:
// only those need a look. It starts the watcher when it is not running
// (the next scan then starts from there).
func (l *Live) fresh() (bool, []string) {
	if l.w != nil {
		paths, all, ok := l.w.changes()
		switch {
		case ok && l.cur != nil && !all:
			return len(paths) == 0, paths
		case ok:
			return false, nil
		}
		l.w.close() // the watches no longer cover memory: watch again
		l.w = nil
	}
	w, err := newWatcher(l.ix.dir.Path)
	if err != nil {
		return false, nil // not watching: every search scans
	}
	l.w = w
	return false, nil
}

// Recall counts topic files as recalled now (as Index.Recall does), in
// memory until the next flush: for a long-running process's reads, such
// as the MCP server's memory_show.
func (l *Live) Recall(files ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recall(files)
	if time.Since(l.flushedAt) >= RecallFlushEvery {
		_ = l.flush()
	}
}

func (l *Live) recall(files []string) {
	if l.pending == nil {
		l.pending = map[string]recall{}
	}
	now := l.ix.now().Unix()
	countRecalls(l.pending, files, now)
	if l.recalls != nil {
		countRecalls(l.recalls, files, now)
	}
}

// counts is the recall counts to rank with: those on disk when they were
// last read, and those counted since.
func (l *Live) counts() map[string]recall {
	if l.recalls == nil {
		l.recalls = l.ix.loadRecalls()
		for f, p := range l.pending {
			r := l.recalls[f]
			r.count += p.count
			r.last = max(r.last, p.last)
			l.recalls[f] = r
		}
	}
	return l.recalls
}

// flush writes the pending recall counts and reads back every count.
func (l *Live) flush() error {
	l.flushedAt = time.Now()
	if len(l.pending) == 0 {
		return nil
	}
	all, err := l.ix.addRecalls(l.pending)
	if err != nil {
		return err // kept pending: the next flush tries again
	}
	l.pending, l.recalls = nil, all
	return nil
}
