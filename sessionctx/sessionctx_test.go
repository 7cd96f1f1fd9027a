package sessionctx

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
)

func TestBuildOrderAndTags(t *testing.T) {
	c := Build(Options{
		Agent:        "generic",
		Instructions: []Instruction{{Path: "/p/AGENTS.md", Scope: typesx.ScopeProject, Text: "Use Go.\n"}},
		Skills:       []Skill{{Name: "deploy", Description: "Ship it", Path: "/p/.claude/skills/deploy/SKILL.md"}},
		Memory:       &Memory{Dir: "/m", Mode: "live", Index: []byte("- [Testing](feedback_testing.md) — real DB\n")},
		Notes:        []string{"Billing migration today."},
	})
	var kinds []string
	for _, b := range c.Blocks {
		kinds = append(kinds, b.Kind)
	}
	if got, want := strings.Join(kinds, ","), "instructions,skills,auto-memory,note"; got != want {
		t.Fatalf("blocks %s, want %s", got, want)
	}
	text := c.Text()
	for _, want := range []string{
		"<instructions path=\"/p/AGENTS.md\" scope=\"project\">\nUse Go.\n</instructions>",
		"- deploy: Ship it (/p/.claude/skills/deploy/SKILL.md)",
		"<auto-memory path=\"/m\" scope=\"auto\">",
		"- [Testing](feedback_testing.md) — real DB",
		"<note scope=\"extra\">\nBilling migration today.\n</note>",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

func TestMemoryIsCapped(t *testing.T) {
	var idx strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&idx, "- [Fact %d](project_fact_%d.md) — number %d\n", i, i, i)
	}
	c := Build(Options{Memory: &Memory{Dir: "/m", Mode: "live", Index: []byte(idx.String()), Caps: index.DefaultCaps}})
	text := c.Text()
	if strings.Contains(text, "(project_fact_250.md) —") || !strings.Contains(text, "(project_fact_199.md) —") {
		t.Error("the index in context is not cut at 200 lines")
	}
	if len(c.Dropped) != 100 || !strings.Contains(text, "WARNING") {
		t.Errorf("dropped %d entries, want 100 with a warning", len(c.Dropped))
	}
}

func TestGuideFollowsMode(t *testing.T) {
	live, log := Guide("/m", "live", "2031-02-03"), Guide("/m", "log", "")
	if !strings.Contains(live, "memdir add") || strings.Contains(live, "Do not edit MEMORY.md") {
		t.Error("live guide should invite direct saves")
	}
	if !strings.Contains(log, "Do not edit MEMORY.md") {
		t.Error("log guide must tell agents to leave MEMORY.md alone")
	}
	if !strings.Contains(live, "absolute dates (2031-02-03)") || !strings.Contains(log, "absolute dates (YYYY-MM-DD)") {
		t.Error("the guide's example date must be the caller's day, or YYYY-MM-DD without one")
	}
	for _, typ := range typesx.Types {
		if !strings.Contains(live, string(typ)+": "+typ.Meaning()) {
			t.Errorf("guide does not explain %s", typ)
		}
	}
}

// TestTextQuotesAttributes: the tags quote path, scope and note as Go
// does (a quote, a newline and a tab in a path stay on the tag's line),
// and AppendText appends the same text.
func TestTextQuotesAttributes(t *testing.T) {
	c := Context{Blocks: []Block{
		{Kind: "instructions", Path: "/p/a \"b\"\n\tc.md", Scope: typesx.ScopeProject, Note: "cut: ü\x01", Text: "one\n\n"},
		{Kind: "note", Text: "two"},
	}}
	want := "<instructions path=\"/p/a \\\"b\\\"\\n\\tc.md\" scope=\"project\" note=\"cut: ü\\x01\">\none\n</instructions>\n" +
		"\n<note>\ntwo\n</note>\n"
	if got := c.Text(); got != want {
		t.Errorf("Text:\n%q\nwant\n%q", got, want)
	}
	if got := string(c.AppendText([]byte("x"))); got != "x"+want {
		t.Errorf("AppendText:\n%q\nwant\n%q", got, "x"+want)
	}
}
