package main

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testRecallTools checks memory_search, memory_timeline and memory_stats
// on the project TestMCPTools left behind.
func testRecallTools(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	for _, name := range []string{"memory_search", "memory_timeline", "memory_stats"} {
		args := map[string]any{}
		if name == "memory_search" {
			args["query"] = "database"
		}
		if msg := callErr(t, ctx, cs, name, args); !strings.Contains(msg, "search is not available in this build") {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

// testSearchSeesEdit checks that memory_search sees a direct edit.
func testSearchSeesEdit(t *testing.T, ctx context.Context, cs *mcp.ClientSession, dir string) {
	t.Helper()
	callErr(t, ctx, cs, "memory_search", map[string]any{"query": "handbook"})
}
