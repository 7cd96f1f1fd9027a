package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type searchResult struct {
	Results []struct {
		File, Name, Type, Snippet, Modified string
		Score                               float64
	} `json:"results"`
}

func (r searchResult) files() []string {
	var out []string
	for _, h := range r.Results {
		out = append(out, h.File)
	}
	return out
}

// testRecallTools checks memory_search, memory_timeline and memory_stats
// on the project TestMCPTools left behind: feedback_testing_policy.md and
// the private project_salary_bands.md.
func testRecallTools(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	res := callOK[searchResult](t, ctx, cs, "memory_search", map[string]any{"query": "databases"})
	if len(res.Results) != 1 {
		t.Fatalf("search databases = %+v", res)
	}
	h := res.Results[0]
	if h.File != "feedback_testing_policy.md" || h.Name != "Testing policy" || h.Type != "feedback" ||
		!strings.Contains(h.Snippet, "**database**") || !strings.HasPrefix(h.Modified, "2026-11-22") || h.Score <= 0 {
		t.Errorf("hit = %+v", h)
	}
	for _, args := range []map[string]any{
		{"query": "confidential"},                    // private topics stay out
		{"query": "database", "type": "project"},     // type filter
		{"query": "database", "since": "2026-11-23"}, // changed before
		{"query": "database", "until": "yesterday"},  // the clock is pinned to 2026-11-22
		{"query": "database NOT mocks"},              // the query language
	} {
		if r := callOK[searchResult](t, ctx, cs, "memory_search", args); len(r.Results) != 0 {
			t.Errorf("search %v = %v, want nothing", args, r.files())
		}
	}
	if r := callOK[searchResult](t, ctx, cs, "memory_search", map[string]any{"query": "database", "since": "today", "limit": 1}); len(r.Results) != 1 {
		t.Errorf("search since today = %v", r.files())
	}
	for _, args := range []map[string]any{
		{"query": "NOT x"}, {"query": ""}, {"query": "x", "since": "next week"}, {"query": "x", "limit": 5000},
	} {
		if msg := callErr(t, ctx, cs, "memory_search", args); strings.Contains(msg, "fts") || msg == "" {
			t.Errorf("search %v: %q", args, msg)
		}
	}
	type timeline struct {
		Source string
		Events []struct{ Kind, File, Name string }
	}
	tl := callOK[timeline](t, ctx, cs, "memory_timeline", nil)
	var changed []string
	for _, e := range tl.Events {
		changed = append(changed, e.Kind+" "+e.File)
	}
	if tl.Source != "stamps" || !slices.Contains(changed, "created feedback_testing_policy.md") || slices.ContainsFunc(changed, func(s string) bool { return strings.Contains(s, "salary") }) {
		t.Errorf("timeline = %+v", tl)
	}
	if tl := callOK[timeline](t, ctx, cs, "memory_timeline", map[string]any{"around": "2026-10-01", "span": "1w"}); len(tl.Events) != 0 {
		t.Errorf("timeline around 2026-10-01 = %+v", tl)
	}
	if tl := callOK[timeline](t, ctx, cs, "memory_timeline", map[string]any{"around": "Testing policy"}); len(tl.Events) == 0 {
		t.Errorf("timeline around a topic = %+v", tl)
	}
	for _, args := range []map[string]any{{"around": "no such topic"}, {"span": "soon"}} {
		callErr(t, ctx, cs, "memory_timeline", args)
	}
	type stats struct {
		Topics  int
		ByType  map[string]int `json:"by_type"`
		Private int
	}
	st := callOK[stats](t, ctx, cs, "memory_stats", nil)
	if st.Topics != 2 || st.Private != 1 || st.ByType["feedback"] != 1 {
		t.Errorf("stats = %+v", st)
	}
}

// testSearchSeesEdit checks that memory_search sees direct edits at once:
// TestMCPSeesDirectEdits rewrote the runbook topic to say "handbook" and
// deleted the on-call topic.
func testSearchSeesEdit(t *testing.T, ctx context.Context, cs *mcp.ClientSession, dir string) {
	t.Helper()
	if r := callOK[searchResult](t, ctx, cs, "memory_search", map[string]any{"query": "handbook"}); len(r.Results) != 1 ||
		r.Results[0].File != "reference_deploy_runbook.md" {
		t.Errorf("search handbook after the edit = %v", r.files())
	}
	if r := callOK[searchResult](t, ctx, cs, "memory_search", map[string]any{"query": "wiki"}); len(r.Results) != 0 {
		t.Errorf("search wiki (edited away) = %v", r.files())
	}
	if r := callOK[searchResult](t, ctx, cs, "memory_search", map[string]any{"query": "PagerDuty"}); len(r.Results) != 0 {
		t.Errorf("search PagerDuty (deleted topic) = %v", r.files())
	}
}
