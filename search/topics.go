package search

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// Topics is every topic's frontmatter kept in memory, for a long-running
// process that shows stats and timelines again and again (the viewer,
// through package overview). Index.List reads every topic file, which at
// 10,000 topics is hundreds of milliseconds; Topics reads each file once
// and then watches the memory directory as Live does: a call that follows
// no change reads and stats nothing, and one that follows a change stats
// the files and reads again only those whose stamp moved. What List and
// IndexState answer is what Index.List and Index.IndexState answer for
// the files as they are.
//
// The search index holds neither a topic's created stamp nor its
// description, which timelines and stats show; so Topics reads the topic
// files themselves the first time.
type Topics struct {
	ix *Index

	mu      sync.Mutex
	w       *watcher // nil: not watching, every call stats the files
	loaded  bool
	closed  bool                     // Close was called: watch no more
	srcs    map[string]source        // every source file as last stamped
	topics  map[string]*memdir.Topic // readable topics, frontmatter only
	bad     map[string]bool          // topic files that do not read or parse
	order   []listKey                // topics in memdir.Dir.List's order
	sorted  []*memdir.Topic          // the same, as List returns them
	gen     int                      // counts the refreshes
	looks   int                      // counts those that statted only the files the watcher named
	indexed int                      // counts the loads from the search index

	idxKey      string   // the stamps of the index files base and delta were read from
	base, delta *segment // the search index, for its state
	state       IndexState
	stateGen    int // the gen state was computed at
}

// OpenTopics returns the topics of a memory directory; nothing is read
// until the first call. Close it to stop watching.
func OpenTopics(d *memdir.Dir) *Topics { return &Topics{ix: Open(d)} }

// Close stops watching the directory; later calls read every topic file.
func (tp *Topics) Close() error {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.w != nil {
		tp.w.close()
		tp.w = nil
	}
	tp.loaded, tp.closed = false, true
	return nil
}

// Load brings the table up to date now (the first time, it reads every
// topic file), so that the next List need not wait for it.
func (tp *Topics) Load() error {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if !tp.ix.dir.Exists() {
		return nil
	}
	_, _, err := tp.list()
	return err
}

// List returns the topics and the count of unreadable topic files as
// Index.List does, bringing the table up to date first.
func (tp *Topics) List() ([]*memdir.Topic, int, error) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if !tp.ix.dir.Exists() {
		return nil, 0, nil
	}
	return tp.list()
}

// IndexState is the search index's state as Index.IndexState says,
// against the files as the last List stamped them.
func (tp *Topics) IndexState() IndexState {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.indexState()
}

// Recalls returns the recall counts as Index.Recalls does.
func (tp *Topics) Recalls() map[string]Recall { return tp.ix.Recalls() }

// list brings the table up to date and returns it.
func (tp *Topics) list() ([]*memdir.Topic, int, error) {
	switch fresh, paths := tp.fresh(); {
	case fresh:
	case paths != nil:
		tp.refreshPaths(paths)
	default:
		if err := tp.refresh(); err != nil {
			return nil, 0, err
		}
	}
	return tp.sorted, len(tp.bad), nil
}

// fresh reports whether the table still reflects every file (the watcher
// runs and saw no change since the last refresh), and when it does not,
// the files the watcher saw touched, if it can name them all. It starts
// the watcher when it is not running, before the refresh that follows
// reads a file, so a change made meanwhile shows next time.
func (tp *Topics) fresh() (bool, []string) {
	if tp.w != nil {
		paths, all, ok := tp.w.changes()
		switch {
		case ok && tp.loaded && !all:
			return len(paths) == 0, paths
		case ok:
			return false, nil
		}
		tp.w.close()
		tp.w = nil
	}
	if tp.closed {
		return false, nil
	}
	if w, err := newWatcher(tp.ix.dir.Path); err == nil {
		tp.w = w
	}
	return false, nil
}

// refreshPaths stats the files at paths alone (those the watcher named)
// and reads again the topic files among them that are still there.
func (tp *Topics) refreshPaths(paths []string) {
	tp.looks++
	at := time.Now().UnixNano()
	root := openRoot(tp.ix.dir.Path)
	var again []source
	gone := map[string]bool{}
	for _, p := range paths {
		if !isTopicSource(p) && !dailylog.IsLogFile(p) {
			continue
		}
		s := statSource(root, p, at)
		if s.kind == 0 {
			delete(tp.srcs, p)
			delete(tp.bad, p)
			if _, ok := tp.topics[p]; ok {
				gone[p] = true
			}
			continue
		}
		tp.srcs[p] = s
		if s.kind == srcTopic {
			again = append(again, s)
		}
	}
	closeRoot(root)
	tp.reread(again, gone)
}

// refresh stats every source file and reads again the topic files that
// are new or whose stamp moved (or was racy when last taken).
func (tp *Topics) refresh() error {
	dir := tp.ix.dir.Path
	f, err := os.Open(dir)
	if err != nil {
		tp.loaded = false
		return fmt.Errorf("read %s: %w", dir, err)
	}
	_ = f.Close()
	if !tp.loaded {
		tp.srcs = nil // read every topic again: the table is started anew
		if tp.loadIndexed() == nil {
			return nil
		}
	}
	at := time.Now().UnixNano()
	names, _ := listSources(dir, at)
	sort.Strings(names)
	srcs := make(map[string]source, len(names))
	var again []source
	for _, s := range statSources(dir, names, at) {
		if s.kind == 0 {
			continue // gone since the listing, or not a regular file
		}
		srcs[s.path] = s
		if old, ok := tp.srcs[s.path]; s.kind == srcTopic && (!ok || old.racy || !sameStamp(old, s)) {
			again = append(again, s)
		}
	}
	if tp.topics == nil || !tp.loaded {
		tp.topics, tp.bad, tp.order = map[string]*memdir.Topic{}, map[string]bool{}, nil
	}
	gone := map[string]bool{} // topics removed or read again
	for f := range tp.topics {
		if srcs[f].kind != srcTopic {
			gone[f] = true
		}
	}
	for f := range tp.bad {
		if srcs[f].kind != srcTopic {
			delete(tp.bad, f)
		}
	}
	tp.srcs = srcs
	tp.reread(again, gone)
	return nil
}

// loadIndexed starts the table from the search index, brought up to
// date first (which stats every file and reads those that changed since
// it was written), instead of reading every topic file: at 10,000 topics
// that is the difference between the index's few megabytes and ten
// thousand files. The index keeps what the table shows (topicMeta).
func (tp *Topics) loadIndexed() error {
	cur, err := tp.ix.refreshOnce()
	defer cur.close()
	if err != nil {
		return err
	}
	metas := map[*segment][]topicMeta{}
	for _, s := range []*segment{cur.base, cur.delta} {
		if s == nil {
			continue
		}
		if metas[s], err = s.metas(); err != nil {
			return err
		}
	}
	srcs := map[string]source{}
	k := knownOf(cur.base, cur.delta)
	for x := range k.len() {
		seg, n := k.at(x)
		src := seg.source(n)
		srcs[src.path] = src
	}
	tp.topics, tp.bad, tp.order = map[string]*memdir.Topic{}, map[string]bool{}, nil
	var added []*memdir.Topic
	newView(cur).each(func(_ int32, s *segment, i int) {
		d := s.doc(i)
		if s.srcKind(int(d.src)) != srcTopic {
			return
		}
		file, m := s.srcPath(int(d.src)), metas[s][i]
		if m.unparsed {
			tp.bad[file] = true
			return
		}
		added = append(added, &memdir.Topic{File: file, Name: d.name, Description: m.desc, Type: d.typ,
			Created: stampTime(m.created), Modified: stampTime(m.modified), Private: d.private, Expires: d.expires})
	})
	for _, t := range added {
		tp.topics[t.File] = t
	}
	tp.srcs, tp.loaded = srcs, true
	tp.gen++
	tp.indexed++
	tp.reorder(nil, added)
	return nil
}

// reread reads the topic files again (new, or changed), takes out of the
// table those gone (removed, or read again) and keeps the order.
func (tp *Topics) reread(again []source, gone map[string]bool) {
	var added []*memdir.Topic
	for i, data := range readFiles(tp.ix.dir.Path, again) {
		f := again[i].path
		if _, ok := tp.topics[f]; ok {
			gone[f] = true
		}
		delete(tp.bad, f)
		t, err := memdir.ParseTopic(f, data)
		if data == nil || err != nil {
			tp.bad[f] = true
			continue
		}
		added = append(added, &memdir.Topic{File: t.File, Name: t.Name, Description: t.Description, Type: t.Type,
			Created: t.Created, Modified: t.Modified, Private: t.Private, Expires: t.Expires})
	}
	for f := range gone {
		delete(tp.topics, f)
	}
	for _, t := range added {
		tp.topics[t.File] = t
	}
	tp.loaded = true
	tp.gen++
	tp.reorder(gone, added)
}

// sameStamp reports whether two stamps of a file are the same (as the
// index's segment.sameStamp compares a file with the stamp it read).
func sameStamp(a, b source) bool {
	return a.size == b.size && a.mtime == b.mtime && a.ctime == b.ctime && a.ino == b.ino && a.kind == b.kind
}

// listKey orders topics as memdir.Dir.List does: by type, then by name
// without case, then by file.
type listKey struct {
	t     *memdir.Topic
	rank  int
	lower string
}

func keyOf(t *memdir.Topic) listKey { return listKey{t, t.Type.Rank(), strings.ToLower(t.Name)} }

func compareKeys(a, b listKey) int {
	return cmp.Or(cmp.Compare(a.rank, b.rank), strings.Compare(a.lower, b.lower), strings.Compare(a.t.File, b.t.File))
}

// reorder keeps the topics in memdir.Dir.List's order: the ones gone are
// taken out and the ones added put in their places, or, when many were
// added, all are sorted again.
func (tp *Topics) reorder(gone map[string]bool, added []*memdir.Topic) {
	if len(gone) > 0 {
		tp.order = slices.DeleteFunc(tp.order, func(k listKey) bool { return gone[k.t.File] })
	}
	if len(added) > 64 {
		for _, t := range added {
			tp.order = append(tp.order, keyOf(t))
		}
		slices.SortFunc(tp.order, compareKeys)
	} else {
		for _, t := range added {
			k := keyOf(t)
			i, _ := slices.BinarySearchFunc(tp.order, k, compareKeys)
			tp.order = slices.Insert(tp.order, i, k)
		}
	}
	tp.sorted = tp.sorted[:0]
	for _, k := range tp.order {
		tp.sorted = append(tp.sorted, k.t)
	}
}

// indexState is the search index's state against the files as the table
// last stamped them: no file is statted again, and the index files are
// read again only when their own stamps moved.
func (tp *Topics) indexState() IndexState {
	key := tp.indexStamp()
	if key != tp.idxKey {
		tp.base, tp.delta = tp.ix.loadIndex()
		tp.idxKey, tp.stateGen = key, -1
	}
	if tp.base == nil {
		return IndexState{}
	}
	if tp.stateGen != tp.gen {
		tp.state, tp.stateGen = stateOf(tp.base, tp.delta, tp.changedSince(knownOf(tp.base, tp.delta))), tp.gen
	}
	return tp.state
}

// changedSince counts the source files that changed since the index k
// names read them, as the table stamped them (a racy stamp is no change).
func (tp *Topics) changedSince(k *known) int {
	n, seen := 0, 0
	for x := range k.len() {
		seg, i := k.at(x)
		s, ok := tp.srcs[seg.srcPath(i)]
		if !ok {
			n++ // removed
			continue
		}
		seen++
		if compareStamp(seg, i, &s) == stampChanged {
			n++
		}
	}
	return n + len(tp.srcs) - seen // and the files it never read
}

// indexStamp names the index files' stamps.
func (tp *Topics) indexStamp() string {
	root := openRoot(tp.ix.dir.Path)
	defer closeRoot(root)
	key := ""
	for _, name := range []string{baseFile, deltaFile} {
		size, mtime, ctime, ino, ok := stampFile(root, StateDir+"/"+name)
		key += fmt.Sprintf("%t %d %d %d %d|", ok, size, mtime, ctime, ino)
	}
	return key
}
