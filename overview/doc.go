// Package overview is the read model of memory: its stats (`memdir
// stats`, the viewer's stats page, memory_stats) and its timelines (`memdir
// timeline`, the viewer's stream, memory_timeline). It reads and never
// writes.
//
// It is apart from the search engine so that the engine imports neither
// memgit nor the dream: overview alone reads git history (through memgit,
// with the caller's clock and environment) and the dream's state and
// schedule. What it needs of the engine (the topic list, the search
// index's state, the recall counts) it reads through a Source, which
// *search.Index (reading the files each time) and *search.Topics (a
// watched table for a long-running process) both are.
//
//	r := overview.Reader{Dir: dir, Source: search.Open(dir), Git: gitOpts}
//	st, err := r.Stats(ctx, overview.StatsOptions{Schedule: "0 3 * * *"})
//	q, err := r.Around("2026-11-20", overview.DefaultAround, false)
//	tl, err := r.Timeline(ctx, q)
package overview

import (
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/search"
)

const day = 24 * time.Hour

// Source is what overview reads of the search engine.
type Source interface {
	// List returns every readable topic in memdir.Dir.List's order and
	// how many topic files could not be read.
	List() ([]*memdir.Topic, int, error)
	// IndexState is the search index's state, looked at, not changed.
	IndexState() search.IndexState
	// Recalls returns the recall counts by topic file.
	Recalls() map[string]search.Recall
}

// Reader reads the stats and timelines of one memory directory.
type Reader struct {
	// Dir is the memory directory.
	Dir *memdir.Dir
	// Source is the engine's view of Dir: search.Open(Dir) when nil.
	Source Source
	// Git is what memgit needs to read history; its Now is also the
	// clock stats and timelines are measured against (the directory's
	// clock when nil).
	Git memgit.Options
}

func (r *Reader) now() time.Time {
	if r.Git.Now != nil {
		return r.Git.Now()
	}
	return r.Dir.Clock()()
}

func (r *Reader) source() Source {
	if r.Source == nil {
		return search.Open(r.Dir)
	}
	return r.Source
}
