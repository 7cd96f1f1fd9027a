package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/overview"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/typesx"
)

// searchInput is a memory_search query.
type searchInput struct {
	agentInput
	Query string     `json:"query" jsonschema:"words to look for; \"exact phrases\", prefix*, OR, NOT and parentheses work"`
	Type  memoryType `json:"type,omitempty" jsonschema:"only memories of this type"`
	Limit int        `json:"limit,omitempty" jsonschema:"at most this many results (default 10)"`
	Since string     `json:"since,omitempty" jsonschema:"only memories changed on or after this date: YYYY-MM-DD, today, yesterday or Nd (N days ago)"`
	Until string     `json:"until,omitempty" jsonschema:"only memories changed on or before this date, in the same forms"`
	// Prefix reads the last word as the start of a word, for a query
	// typed as it is written.
	Prefix bool `json:"prefix,omitempty" jsonschema:"read the query's last word as the start of a word (kafk finds kafka)"`
}

// searchOutput is what memory_search found, best first.
type searchOutput struct {
	Results []Hit `json:"results"`
}

// search runs the engine and ranking of `memdir search` on the person's
// memory and the team's, merged by rank; private topics stay out, as they
// do by default there.
func (s *Server) search(ctx context.Context, req *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	out := searchOutput{Results: []Hit{}}
	p, err := s.project(ctx, req.Session, in.agent())
	if err != nil {
		return nil, out, err
	}
	q := search.Query{Text: in.Query, Limit: in.Limit, Prefix: in.Prefix}
	if in.Type != "" {
		t, err := parseType(in.Type, false)
		if err != nil {
			return nil, out, err
		}
		q.Types = []typesx.Type{t}
	}
	if q.Since, err = day("since", in.Since, p.Dir); err != nil {
		return nil, out, err
	}
	if q.Until, err = day("until", in.Until, p.Dir); err != nil {
		return nil, out, err
	}
	if out.Results, err = s.searchBoth(ctx, p, q); err != nil {
		return nil, searchOutput{Results: []Hit{}}, err
	}
	return nil, out, nil
}

// day reads a since or until date against the directory's clock.
func day(what, v string, d *memdir.Dir) (string, error) {
	day, err := dailylog.ParseDay(v, d.Clock()())
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return day, nil
}

// timelineInput is the point memory_timeline looks around.
type timelineInput struct {
	agentInput
	Around string `json:"around,omitempty" jsonschema:"a day (YYYY-MM-DD, today, yesterday or Nd for N days ago) or a memory's name or file; default: now"`
	Span   string `json:"span,omitempty" jsonschema:"how far to look on each side: Nd, Nw or Nh (default 3d)"`
}

// timeline is `memdir timeline`: topic changes (git history or stamps)
// and log entries around a point, oldest first.
func (s *Server) timeline(ctx context.Context, req *mcp.CallToolRequest, in timelineInput) (*mcp.CallToolResult, *overview.Timeline, error) {
	span := overview.DefaultAround
	if in.Span != "" {
		var err error
		if span, err = overview.ParseSpan(in.Span); err != nil {
			return nil, nil, fmt.Errorf("span: %w", err)
		}
	}
	p, err := s.project(ctx, req.Session, in.agent())
	if err != nil {
		return nil, nil, err
	}
	r := reader(p.Dir)
	q, err := r.Around(in.Around, span, false)
	if err != nil {
		return nil, nil, err
	}
	tl, err := r.Timeline(ctx, q)
	return nil, tl, err
}

// stats is `memdir stats`.
func (s *Server) stats(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, *overview.Stats, error) {
	p, err := s.project(ctx, req.Session)
	if err != nil {
		return nil, nil, err
	}
	st, err := reader(p.Dir).Stats(ctx, overview.StatsOptions{Schedule: p.Schedule})
	return nil, st, err
}

// reader reads the stats and timelines of a memory directory with its
// clock (the server's environment is memgit's).
func reader(d *memdir.Dir) *overview.Reader {
	return &overview.Reader{Dir: d, Git: memgit.Options{Now: d.Clock()}}
}
