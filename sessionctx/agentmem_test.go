package sessionctx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAgentMemoryMatchesClaude renders each case recorded from the real
// Claude Code (scripts/e2e/agent-memory-golden) and compares byte for byte.
func TestAgentMemoryMatchesClaude(t *testing.T) {
	golden := filepath.Join("..", "testdata", "claude", "agent-memory")
	index := []byte("- [Author](user_author.md) — The author writes Go services.\n- [Small PRs](feedback_small_prs.md) — Ask for changes under 400 lines.\n")
	for _, tc := range []struct {
		name string
		m    AgentMemory
	}{
		{"user", AgentMemory{Dir: "$HOME/.claude/agent-memory/reviewer", Scope: "user", Index: index}},
		{"project", AgentMemory{Dir: "$PROJ/.claude/agent-memory/reviewer", Scope: "project", Index: index}},
		{"local", AgentMemory{Dir: "$PROJ/.claude/agent-memory-local/reviewer", Scope: "local", Index: index}},
		{"link", AgentMemory{Dir: "$PROJ/.claude/agent-memory/reviewer", Scope: "project", Index: index, NotLoaded: true}},
		{"empty", AgentMemory{Dir: "$PROJ/.claude/agent-memory/reviewer", Scope: "project"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(golden, tc.name+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			got := AgentMemoryText(tc.m) + "\n"
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("agent memory %s differs from Claude Code's (-claude +memdir):\n%s", tc.name, diff)
			}
		})
	}
}

// The recorded client version is the one the text was taken from.
func TestAgentMemoryGoldenVersion(t *testing.T) {
	v, err := os.ReadFile(filepath.Join("..", "testdata", "claude", "agent-memory", "VERSION"))
	if err != nil || !strings.HasPrefix(string(v), "Claude Code 2.1.332") {
		t.Errorf("VERSION = %q, %v; the text in agenttext.go is 2.1.332's: record again and update both", v, err)
	}
}
