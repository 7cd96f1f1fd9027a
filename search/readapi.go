package search

import (
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// This file is what the read model (package overview: stats, the stream
// and timelines) reads of the engine: the topic list, the index's state
// and the recall counts. Index reads them from the files each time;
// Topics keeps them for a long-running process.

// IndexState is the search index's state.
type IndexState struct {
	Built     bool `json:"built"`
	Documents int  `json:"documents"`
	Bytes     int  `json:"bytes"`
	// Fresh is set when the index reflects every file; the next search
	// brings a stale one up to date.
	Fresh   bool `json:"fresh"`
	Changed int  `json:"changed_files"`
}

// Recall is how often searches returned a topic or someone showed it,
// and when last.
type Recall struct {
	Count int
	Last  time.Time
}

// List returns every readable topic (a sync's conflict copies left out)
// in memdir.Dir.List's order and how many topic files could not be read.
// It reads every topic file; a long-running process asks Topics instead.
func (ix *Index) List() ([]*memdir.Topic, int, error) {
	if !ix.dir.Exists() {
		return nil, 0, nil
	}
	topics, problems, err := ix.dir.List() // conflict copies are not listed
	return topics, len(problems), err
}

// IndexState looks at the search index without changing it, statting
// every file to see whether the index reflects it.
func (ix *Index) IndexState() IndexState {
	base, delta := ix.loadIndex()
	if base == nil {
		return IndexState{}
	}
	sc := scanFiles(ix.dir.Path, knownOf(base, delta), dirsOf(base, delta))
	return stateOf(base, delta, len(sc.changed)-sc.racy+len(sc.deleted))
}

// Recalls returns the recall counts by topic file; none when there are
// none.
func (ix *Index) Recalls() map[string]Recall {
	rs := ix.loadRecalls()
	out := make(map[string]Recall, len(rs))
	for f, r := range rs {
		out[f] = Recall{Count: r.count, Last: time.Unix(r.last, 0).UTC()}
	}
	return out
}

// EntryTime is when a daily-log entry was written, in local time, as the
// index dates it (the day alone when its time does not read).
func EntryTime(e dailylog.Entry) time.Time { return entryTime(e) }

// loadIndex reads the index files as they are: nil when there is no
// index, and no delta when the delta was written for another base.
func (ix *Index) loadIndex() (base, delta *segment) {
	if base = ix.load(baseFile); base == nil {
		return nil, nil
	}
	base.tail.close() // its sources and documents are all a state needs
	if delta = ix.load(deltaFile); delta != nil {
		delta.tail.close()
		if delta.baseID != base.id {
			delta = nil
		}
	}
	return base, delta
}

// stateOf is the state of an index whose files changed counts the
// source files changed since it read them.
func stateOf(base, delta *segment, changed int) IndexState {
	v := newView(&current{base: base, delta: delta})
	st := IndexState{Built: true, Documents: v.live, Bytes: base.size, Fresh: changed == 0, Changed: changed}
	if delta != nil {
		st.Bytes += delta.size
	}
	return st
}
