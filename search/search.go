package search

import (
	"context"
	"fmt"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// Limits of a search's result count.
const (
	DefaultLimit = 10
	MaxLimit     = 1000
)

// Index is the search index of one memory directory: derived data under
// <memory dir>/.memdir/search/, brought up to date with the files by every
// search and rebuilt whenever it is missing or damaged. Many processes may
// use one index at once.
type Index struct {
	dir      *memdir.Dir
	sem      Semantic              // nil: words alone
	fusion   fusion                // how sem's ranking is fused (tests measure others)
	progress func(done, total int) // hears a build from every file (WithProgress)
}

// Open returns the index of a memory directory. Nothing is read until it
// is used.
func Open(d *memdir.Dir) *Index { return &Index{dir: d} }

func (ix *Index) now() time.Time {
	return ix.dir.Clock()()
}

// Query is one search.
type Query struct {
	// Text is the query: words (all should match; when no memory has them
	// all, any may), "phrases", prefix*, OR, AND, NOT or -word, and
	// parentheses. A stray quote or operator is punctuation (see the
	// package doc).
	Text string `json:"query"`
	// Types keeps memories of these types only; log entries without a
	// type are left out when it is set.
	Types []typesx.Type `json:"types,omitempty"`
	// Tags keeps topics that carry every one of these tags (any case).
	Tags []string `json:"tags,omitempty"`
	// Since and Until bound the day a memory was last changed (a log
	// entry's day), YYYY-MM-DD, both inclusive; "" for no bound.
	Since string `json:"since,omitempty"`
	Until string `json:"until,omitempty"`
	// Prefix reads the query's last word as the start of a word, as it
	// is while someone types (the viewer, an MCP client's search box).
	Prefix bool `json:"prefix,omitempty"`
	// Limit is the most hits returned: DefaultLimit when 0.
	Limit int `json:"limit,omitempty"`
	// IncludePrivate returns private topics too.
	IncludePrivate bool `json:"include_private,omitempty"`
	// DirsOnly compares the files with the index only when their
	// directory's stamp moved (a file was created, removed or renamed):
	// a file edited in place since the last search ranks as the index has
	// it, though its hit is read as it is now. Per-prompt recall, which
	// must answer within a hook's budget, asks for it.
	DirsOnly bool `json:"-"`
	// NoRecall leaves the recall counts alone (a search that shows no one
	// the memories it finds).
	NoRecall bool `json:"-"`
	// Rarest, when above 0 and the query's plain words are in many
	// memories, searches only that many of them, those the fewest
	// memories hold (per-prompt recall: a long prompt's common words cost
	// the most and tell the least). A memory's Coverage counts the others
	// as words it does not hold.
	Rarest int `json:"-"`
	// admit, when set, is asked about each ranked memory before its file
	// is read for its hit (ix.brief says what it is told), with how many
	// hits were admitted before: per-prompt recall reads only the files
	// it gives.
	admit func(h Hit, admitted int) bool
}

// Hit is one memory a search found.
type Hit struct {
	// File is the topic file, or the daily log, relative to the memory
	// directory.
	File string `json:"file"`
	// Kind is "topic" or "log".
	Kind        string      `json:"kind"`
	Name        string      `json:"name"`
	Type        typesx.Type `json:"type,omitempty"`
	Description string      `json:"description,omitempty"`
	Tags        []string    `json:"tags,omitempty"`
	// Score is the ranking score: relevance, times recency and recall.
	Score float64 `json:"score"`
	// Modified is when a topic last changed, or when a log entry was
	// written.
	Modified time.Time `json:"modified"`
	// Snippet is the best-matching passage, matched words in **bold**.
	Snippet string `json:"snippet"`
	// ExactName is set when the query is the memory's name.
	ExactName bool `json:"exact_name,omitempty"`
	Private   bool `json:"private,omitempty"`
	Expired   bool `json:"expired,omitempty"`
	// Coverage is the share of the query's words the memory has (a near
	// spelling counts half): 1 when it has them all. Per-prompt recall
	// holds it against its floor.
	Coverage float64 `json:"-"`
	// Day, Entry and Line locate a log entry: its day, its number in the
	// day's file (from 1) and the line its bullet starts on.
	Day   string `json:"day,omitempty"`
	Entry int    `json:"entry,omitempty"`
	Line  int    `json:"line,omitempty"`
}

// Search runs a query. A query that cannot be read is a
// *memdir.InputError with one line saying why; the index itself never
// makes a search fail (it is rebuilt from the files when it must be).
// The hits count as recalled unless q.NoRecall is set.
func (ix *Index) Search(ctx context.Context, q Query) ([]Hit, error) {
	var cur *current
	once := func() (*current, error) {
		c, err := ix.bringUp(false, q.DirsOnly)
		cur = c
		return c, err
	}
	hits, files, err := ix.searchIn(ctx, q, once, ix.loadRecalls)
	cur.close()
	if err == nil && cur.damaged() {
		// A postings list read from the file did not match its checksum:
		// build the index again from the files and answer from that.
		rebuilt := func() (*current, error) {
			base, err := ix.rebuild(nil)
			return &current{base: base, rebuilt: true}, err
		}
		hits, files, err = ix.searchIn(ctx, q, rebuilt, ix.loadRecalls)
	}
	if err == nil && !q.NoRecall && len(files) > 0 {
		_ = ix.Recall(files...) // counting is a nicety: never fail a search for it
	}
	return hits, err
}

// searchIn runs a query over the index load returns, ranked with the
// recall counts recalls returns. It returns the hits and the topic files
// among them, which the caller counts as recalled.
func (ix *Index) searchIn(ctx context.Context, q Query, load func() (*current, error), recalls func() map[string]recall) ([]Hit, []string, error) {
	now := ix.now()
	pq, err := parseTyped(q.Text, q.Prefix, now)
	if err != nil {
		return nil, nil, err
	}
	if err := checkQuery(&q); err != nil {
		return nil, nil, err
	}
	hits := []Hit{}
	if !ix.dir.Exists() {
		return hits, nil, nil
	}
	cur, err := load()
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	v := newView(cur)
	pq.root, pq.dropped = rarest(v, pq.root, q.Rarest)
	keep := ix.filter(v, &q)
	// A query that admits its hits (per-prompt recall) ranks deeper than
	// its limit: a memory it refuses (already loaded, or found by meaning
	// alone) must not take the place of one it would give.
	depth := q.Limit
	if q.admit != nil {
		depth = max(q.Limit, fuseDepth)
	}
	var top []ranked
	if ix.sem != nil {
		top = ix.fuse(ctx, v, ix.rank(v, pq, keep, max(depth, fuseDepth), now, recalls()), q.Text, keep, depth)
	} else {
		top = ix.rank(v, pq, keep, depth, now, recalls())
	}
	var files []string
	for _, r := range top {
		if len(hits) == q.Limit {
			break
		}
		if q.admit != nil && !q.admit(ix.brief(v, r), len(hits)) {
			continue
		}
		h := ix.hit(v, r, pq, now)
		hits = append(hits, h)
		if h.Kind == kindTopic {
			files = append(files, h.File)
		}
	}
	return hits, files, nil
}

// checkQuery validates the options and fills in the default limit.
func checkQuery(q *Query) error {
	switch {
	case q.Limit == 0:
		q.Limit = DefaultLimit
	case q.Limit < 0 || q.Limit > MaxLimit:
		return &memdir.InputError{Msg: fmt.Sprintf("limit %d: give a number from 1 to %d", q.Limit, MaxLimit)}
	}
	for _, t := range q.Types {
		if !t.Valid() {
			return &memdir.InputError{Msg: (&typesx.UnknownTypeError{Name: string(t)}).Error()}
		}
	}
	for _, d := range []string{q.Since, q.Until} {
		if _, err := time.Parse(time.DateOnly, d); d != "" && err != nil {
			return &memdir.InputError{Msg: fmt.Sprintf("date %q: use YYYY-MM-DD", d)}
		}
	}
	if q.Since != "" && q.Until != "" && q.Since > q.Until {
		return &memdir.InputError{Msg: fmt.Sprintf("since %s is after until %s", q.Since, q.Until)}
	}
	return nil
}
