package overview

import (
	"context"
	"sort"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/distilled"
	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/typesx"
)

// DefaultStaleAfter is how long a topic may go without being recalled
// before stats counts it stale.
const DefaultStaleAfter = 90 * day

// StatsOptions are what Stats needs beyond the directory.
type StatsOptions struct {
	// Schedule is the dream.schedule setting; "" means no dream is
	// scheduled.
	Schedule string
	// StaleAfter is DefaultStaleAfter when zero.
	StaleAfter time.Duration
}

// Stats is the state of a memory directory.
type Stats struct {
	Topics     int            `json:"topics"`
	ByType     map[string]int `json:"by_type"`
	Private    int            `json:"private"`
	Expired    int            `json:"expired"`
	Unreadable int            `json:"unreadable"`
	Index      IndexStats     `json:"memory_md"`
	// LogPending counts daily-log entries no dream has distilled yet.
	LogPending int               `json:"log_entries_pending"`
	LastDream  *time.Time        `json:"last_dream"`
	NextDream  *time.Time        `json:"next_dream"`
	Search     search.IndexState `json:"search_index"`
	// Stale lists the topics older than StaleAfter that no search
	// returned and no one showed in that time, oldest recall first.
	Stale []StaleTopic `json:"stale"`
}

// IndexStats is MEMORY.md against its load caps.
type IndexStats struct {
	Lines    int  `json:"lines"`
	MaxLines int  `json:"max_lines"`
	Size     int  `json:"size"` // UTF-16 code units, as the loader counts
	MaxSize  int  `json:"max_size"`
	OverWarn bool `json:"over_warn"`
	OverCap  bool `json:"over_cap"`
}

// StaleTopic is a topic no one recalled for a long time.
type StaleTopic struct {
	File       string      `json:"file"`
	Name       string      `json:"name"`
	Type       typesx.Type `json:"type"`
	Modified   time.Time   `json:"modified"`
	Recalls    int         `json:"recalls"`
	LastRecall *time.Time  `json:"last_recall"`
}

// Stats measures the memory directory. It reads and never writes: the
// search index is looked at, not brought up to date.
func (r *Reader) Stats(ctx context.Context, opts StatsOptions) (*Stats, error) {
	if opts.StaleAfter <= 0 {
		opts.StaleAfter = DefaultStaleAfter
	}
	st := &Stats{ByType: map[string]int{}, Stale: []StaleTopic{}}
	for _, t := range typesx.Types {
		st.ByType[string(t)] = 0
	}
	if !r.Dir.Exists() {
		return st, nil
	}
	now := r.now()
	src := r.source()
	topics, unreadable, err := src.List()
	if err != nil {
		return nil, err
	}
	st.countTopics(topics, now)
	st.Unreadable = unreadable
	st.Stale = staleTopics(topics, src.Recalls(), now, opts.StaleAfter)
	data, err := r.Dir.IndexBytes()
	if err != nil {
		return nil, err
	}
	p := index.Measure(data, index.DefaultCaps)
	st.Index = IndexStats{Lines: p.Lines, MaxLines: p.Caps.Lines, Size: p.Bytes, MaxSize: p.Caps.Bytes, OverWarn: p.OverWarn, OverCap: p.OverCap}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if st.LogPending, err = pendingEntries(r.Dir.Path); err != nil {
		return nil, err
	}
	st.LastDream, st.NextDream = dreamTimes(r.Dir.Path, opts.Schedule, now)
	st.Search = src.IndexState()
	return st, nil
}

func (st *Stats) countTopics(topics []*memdir.Topic, now time.Time) {
	for _, t := range topics {
		st.Topics++
		st.ByType[string(t.Type)]++
		if t.Private {
			st.Private++
		}
		if t.Expired(now) {
			st.Expired++
		}
	}
}

// staleTopics lists topics older than after with no recall in that time.
func staleTopics(topics []*memdir.Topic, recalls map[string]search.Recall, now time.Time, after time.Duration) []StaleTopic {
	cutoff := now.Add(-after)
	out := []StaleTopic{}
	for _, t := range topics {
		born := t.Created
		if born.IsZero() {
			born = t.Modified
		}
		r := recalls[t.File]
		if born.IsZero() || born.After(cutoff) || r.Count > 0 && r.Last.After(cutoff) {
			continue
		}
		s := StaleTopic{File: t.File, Name: t.Name, Type: t.Type, Modified: t.Modified, Recalls: r.Count}
		if r.Count > 0 {
			last := r.Last
			s.LastRecall = &last
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return lastOf(out[i]) < lastOf(out[j]) })
	return out
}

func lastOf(s StaleTopic) int64 {
	if s.LastRecall == nil {
		return 0
	}
	return s.LastRecall.Unix()
}

// pendingEntries counts the log entries no dream has distilled.
func pendingEntries(dir string) (int, error) {
	entries, _, err := dailylog.Read(dir, "", "")
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	done, err := distilled.Of(dir, entries)
	if err != nil {
		return len(entries), nil // a damaged dream state distills everything again
	}
	n := 0
	for _, d := range done {
		if !d {
			n++
		}
	}
	return n, nil
}

// dreamTimes is the last dream and the next one the schedule plans.
func dreamTimes(dir, schedule string, now time.Time) (last, next *time.Time) {
	if t, err := dream.LastDream(dir); err == nil && !t.IsZero() {
		t = t.UTC()
		last = &t
	}
	if schedule != "" {
		if runs, err := dream.NextRuns(schedule, now, 1); err == nil && len(runs) == 1 {
			next = &runs[0]
		}
	}
	return last, next
}
