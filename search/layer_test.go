package search

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEngineStaysApart keeps the engine apart from history and the
// dream's schedule (docs/architecture.md): stats and timelines that need
// them live in package overview, and which log entries are distilled
// comes from package distilled.
func TestEngineStaysApart(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch dep {
		case "github.com/memdir/memdir/dream", "github.com/memdir/memdir/memgit",
			"github.com/memdir/memdir/overview", "github.com/robfig/cron/v3", "github.com/go-git/go-git/v5":
			t.Errorf("package search depends on %s", dep)
		}
	}
}
