package overview

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/distilled"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/typesx"
)

// DefaultAround is how far a timeline reaches on each side of its point.
const DefaultAround = 3 * day

// TimelineQuery asks what happened to memory between From and To.
type TimelineQuery struct {
	From, To time.Time
	// Topic, a topic file, marks that topic's own changes (Focus).
	Topic string
	// IncludePrivate shows the changes of private topics too.
	IncludePrivate bool
}

// Event is one thing that happened to memory.
type Event struct {
	Time time.Time `json:"time"`
	// Kind is "commit" (memory in git), "created" or "modified" (the
	// topics' stamps, when memory is not in git), or "log" (a daily-log
	// entry).
	Kind string      `json:"kind"`
	File string      `json:"file,omitempty"`
	Name string      `json:"name,omitempty"`
	Type typesx.Type `json:"type,omitempty"`
	// Text is a commit's subject, or a log entry's text on one line.
	Text   string `json:"text"`
	Commit string `json:"commit,omitempty"`
	// Day and Entry locate a log entry; Distilled says whether a dream
	// has filed it into a topic.
	Day       string `json:"day,omitempty"`
	Entry     int    `json:"entry,omitempty"`
	Distilled *bool  `json:"distilled,omitempty"`
	// Focus marks the events of the topic the timeline was asked about.
	Focus bool `json:"focus,omitempty"`
}

// Timeline is what happened to memory in a span of time, oldest first.
type Timeline struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// Source says where topic changes come from: "git" when memory is
	// versioned, else "stamps" (the created and modified keys).
	Source string  `json:"source"`
	Events []Event `json:"events"`
}

// Timeline gathers the topic changes (git history where memory is
// versioned, else the created and modified stamps) and the daily-log
// entries between q.From and q.To.
func (r *Reader) Timeline(ctx context.Context, q TimelineQuery) (*Timeline, error) {
	tl := &Timeline{From: q.From, To: q.To, Source: "stamps", Events: []Event{}}
	if !r.Dir.Exists() {
		return tl, nil
	}
	in := func(t time.Time) bool { return !t.Before(q.From) && !t.After(q.To) }
	commits, err := r.commitEvents(q, in)
	if err != nil {
		return nil, err
	}
	if commits != nil {
		tl.Source, tl.Events = "git", commits
	} else if tl.Events, err = stampEvents(q, in, r.source()); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	logs, err := r.logEvents(q, in)
	if err != nil {
		return nil, err
	}
	tl.Events = append(tl.Events, logs...)
	sort.SliceStable(tl.Events, func(i, j int) bool { return tl.Events[i].Time.Before(tl.Events[j].Time) })
	return tl, nil
}

// commitEvents lists the commits that changed memory in the span; nil
// when memory is not in git or no commit ever changed it.
func (r *Reader) commitEvents(q TimelineQuery, in func(time.Time) bool) ([]Event, error) {
	repo, err := memgit.Open(r.Dir.Path, r.Git)
	if errors.Is(err, memgit.ErrNoRepo) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	all, err := repo.History("", 0)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	focus := map[string]bool{}
	if q.Topic != "" {
		mine, err := repo.History(q.Topic, 0)
		if err != nil {
			return nil, err
		}
		for _, c := range mine {
			focus[c.Hash] = true
		}
	}
	out := []Event{}
	for _, c := range all {
		if in(c.When) {
			out = append(out, Event{Time: c.When, Kind: "commit", Text: c.Subject, Commit: c.Short, Focus: focus[c.Hash]})
		}
	}
	return out, nil
}

// stampEvents lists the topics created or modified in the span.
func stampEvents(q TimelineQuery, in func(time.Time) bool, src Source) ([]Event, error) {
	topics, _, err := src.List()
	if err != nil {
		return nil, err
	}
	out := []Event{}
	for _, t := range topics {
		if t.Private && !q.IncludePrivate {
			continue
		}
		ev := Event{File: t.File, Name: t.Name, Type: t.Type, Text: t.Description, Focus: t.File == q.Topic}
		if !t.Created.IsZero() && in(t.Created) {
			ev.Time, ev.Kind = t.Created, "created"
			out = append(out, ev)
		}
		if !t.Modified.IsZero() && !t.Modified.Equal(t.Created) && in(t.Modified) {
			ev.Time, ev.Kind = t.Modified, "modified"
			out = append(out, ev)
		}
	}
	return out, nil
}

// logEvents lists the daily-log entries written in the span.
func (r *Reader) logEvents(q TimelineQuery, in func(time.Time) bool) ([]Event, error) {
	entries, _, err := dailylog.Read(r.Dir.Path, q.From.AddDate(0, 0, -1).Format(time.DateOnly), q.To.AddDate(0, 0, 1).Format(time.DateOnly))
	if err != nil {
		return nil, err
	}
	done, err := distilled.Of(r.Dir.Path, entries)
	if err != nil {
		done = make([]bool, len(entries)) // a damaged dream state: show every entry as waiting
	}
	var out []Event
	num := map[string]int{}
	for i, e := range entries {
		num[e.File]++
		when := search.EntryTime(e)
		if !in(when) {
			continue
		}
		d := done[i]
		out = append(out, Event{Time: when, Kind: "log", File: e.File, Name: e.Title, Type: e.Type,
			Text: strings.Join(strings.Fields(e.Text), " "), Day: e.Date, Entry: num[e.File], Distilled: &d})
	}
	return out, nil
}
