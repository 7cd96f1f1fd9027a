package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// teamSession serves a personal and a team memory directory (the team's
// made on first write, as the CLI's opener does) to an in-process client.
// With agent, calls naming an agent_type get a project with no team part.
func teamSession(t *testing.T) (*mcp.ClientSession, string, string) {
	t.Helper()
	own, team := filepath.Join(t.TempDir(), "own"), filepath.Join(t.TempDir(), "proj", ".memdir", "team")
	open := func(_ string, a Agent) (*Project, error) {
		p := &Project{Dir: memdir.Open(own, memdir.Live)}
		if a.Type != "" {
			p.Dir = memdir.Open(filepath.Join(own, "agent-"+a.Type), memdir.Live)
			return p, nil
		}
		p.Team = func(create bool) (*Team, error) {
			if create {
				if err := os.MkdirAll(team, 0o755); err != nil {
					return nil, err
				}
			}
			return &Team{Dir: memdir.Open(team, memdir.Live), Rel: ".memdir/team"}, nil
		}
		return p, nil
	}
	s, err := New(Options{Open: open})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.closeIndexes)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.mcp.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, own, team
}

// call calls a tool and decodes its structured result into out; it
// returns the error text of a refused call ("" when it succeeded).
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, data, err)
	}
	return ""
}

type scoped struct {
	File  string `json:"file"`
	Scope string `json:"scope"`
}

func TestTeamTools(t *testing.T) {
	cs, own, team := teamSession(t)
	var add struct {
		scoped
		Action string `json:"action"`
	}
	if msg := call(t, cs, "memory_add", map[string]any{"type": "reference", "name": "Kafka dashboards",
		"text": "The kafka lag dashboard is grafana/kafka-lag.", "team": true}, &add); msg != "" {
		t.Fatalf("team add refused: %s", msg)
	}
	if add.Scope != "team" || add.File != "reference_kafka_dashboards.md" || add.Action != "created" {
		t.Errorf("team add = %+v", add)
	}
	if _, err := os.Stat(filepath.Join(team, add.File)); err != nil {
		t.Errorf("team topic not in the team directory: %v", err)
	}
	var mine scoped
	call(t, cs, "memory_add", map[string]any{"type": "project", "name": "Kafka upgrade", "text": "We move kafka to version 4."}, &mine)
	if mine.Scope != "" || mine.File != "project_kafka_upgrade.md" {
		t.Errorf("personal add = %+v", mine)
	}
	if _, err := os.Stat(filepath.Join(own, "project_kafka_upgrade.md")); err != nil {
		t.Errorf("personal topic: %v", err)
	}

	// Refusals: private, a credential, a subagent's memory.
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"private", map[string]any{"type": "project", "name": "Salaries", "text": "Bands.", "team": true, "private": true}, "team and private"},
		{"secret", map[string]any{"type": "reference", "name": "AWS", "text": "the key is AKIAQ3EGUTHNCXYZ4ABC for prod", "team": true}, "nothing was saved"},
		{"agent", map[string]any{"type": "feedback", "name": "Style", "text": "Short names.", "team": true, "agent_type": "reviewer"}, "no team part"},
	} {
		if msg := call(t, cs, "memory_add", tc.args, &add); !strings.Contains(msg, tc.want) {
			t.Errorf("%s: add answered %q, want a refusal with %q", tc.name, msg, tc.want)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(team, "*_*.md")); len(files) != 1 {
		t.Errorf("team directory holds %v, want only the dashboards topic", files)
	}

	var found struct{ Results []scoped }
	call(t, cs, "memory_search", map[string]any{"query": "kafka"}, &found)
	if got := scopes(found.Results); !slices.Equal(got, []string{"project_kafka_upgrade.md:", "reference_kafka_dashboards.md:team"}) {
		t.Errorf("search kafka = %v", got)
	}
	call(t, cs, "memory_search", map[string]any{"query": "dashboard"}, &found)
	if got := scopes(found.Results); !slices.Equal(got, []string{"reference_kafka_dashboards.md:team"}) {
		t.Errorf("search dashboard = %v", got)
	}
	// A query typed as it is written: its last word is a prefix only when
	// the caller says so.
	call(t, cs, "memory_search", map[string]any{"query": "dashb"}, &found)
	if got := scopes(found.Results); len(got) != 0 {
		t.Errorf("search dashb = %v, want nothing without prefix", got)
	}
	call(t, cs, "memory_search", map[string]any{"query": "dashb", "prefix": true}, &found)
	if got := scopes(found.Results); !slices.Equal(got, []string{"reference_kafka_dashboards.md:team"}) {
		t.Errorf("search dashb with prefix = %v", got)
	}

	var listed struct{ Topics []scoped }
	call(t, cs, "memory_list", nil, &listed)
	if got := scopes(listed.Topics); !slices.Equal(got, []string{"project_kafka_upgrade.md:", "reference_kafka_dashboards.md:team"}) {
		t.Errorf("list = %v", got)
	}
	call(t, cs, "memory_list", map[string]any{"team": true}, &listed)
	if got := scopes(listed.Topics); !slices.Equal(got, []string{"reference_kafka_dashboards.md:team"}) {
		t.Errorf("list team = %v", got)
	}

	var shown, mineShown scoped
	call(t, cs, "memory_show", map[string]any{"name_or_file": "Kafka upgrade"}, &mineShown)
	if mineShown.Scope != "" || mineShown.File != "project_kafka_upgrade.md" {
		t.Errorf("show own = %+v", mineShown)
	}
	call(t, cs, "memory_show", map[string]any{"name_or_file": "Kafka dashboards"}, &shown)
	if shown.Scope != "team" {
		t.Errorf("show falls back to team memory: %+v", shown)
	}
	if msg := call(t, cs, "memory_show", map[string]any{"name_or_file": "Kafka upgrade", "team": true}, &shown); msg == "" {
		t.Error("show team: true found a personal memory")
	}
	var forgot struct{ Removed string }
	if msg := call(t, cs, "memory_forget", map[string]any{"name_or_file": "Kafka dashboards"}, &forgot); msg == "" {
		t.Error("forget without team removed a team memory")
	}
	call(t, cs, "memory_forget", map[string]any{"name_or_file": "Kafka dashboards", "team": true}, &forgot)
	if _, err := os.Stat(filepath.Join(team, "reference_kafka_dashboards.md")); !os.IsNotExist(err) {
		t.Errorf("forget team: the topic is still there (%v)", err)
	}
}

func scopes(items []scoped) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.File+":"+it.Scope)
	}
	slices.Sort(out)
	return out
}

func TestMergeHits(t *testing.T) {
	day := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	hit := func(file string, score float64, exact bool, age int, scope string) Hit {
		return Hit{Hit: search.Hit{File: file, Score: score, ExactName: exact, Modified: day.AddDate(0, 0, -age)}, Scope: scope}
	}
	for _, tc := range []struct {
		name  string
		hits  []Hit
		limit int
		want  []string
	}{
		{"by score", []Hit{hit("a", 1, false, 0, ""), hit("b", 3, false, 0, "team"), hit("c", 2, false, 0, "")}, 10, []string{"b", "c", "a"}},
		{"exact name first", []Hit{hit("a", 9, false, 0, ""), hit("b", 1, true, 0, "team")}, 10, []string{"b", "a"}},
		{"newer at equal score", []Hit{hit("old", 1, false, 5, ""), hit("new", 1, false, 1, "team")}, 10, []string{"new", "old"}},
		{"own first at equal rank", []Hit{hit("own", 1, false, 0, ""), hit("team", 1, false, 0, "team")}, 10, []string{"own", "team"}},
		{"limit", []Hit{hit("a", 1, false, 0, ""), hit("b", 3, false, 0, "team"), hit("c", 2, false, 0, "")}, 2, []string{"b", "c"}},
		{"none", nil, 10, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := []string{}
			for _, h := range MergeHits(tc.hits, tc.limit) {
				got = append(got, h.File)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("MergeHits = %v, want %v", got, tc.want)
			}
		})
	}
}
