package viewer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// nearDeploy is a ranking by meaning that finds the deploy checklist for
// any question, as an embedding server would for one about releases.
type nearDeploy struct{}

func (nearDeploy) Nearest(context.Context, string, int, []search.Stamped) []search.Near {
	return []search.Near{{File: "project_deploy_checklist.md", Score: 0.9}}
}

// TestSearchFusesSemantic: a project with a Semantic ranking (the user's
// embedding server) gets it fused into the search page's results, so a
// question whose words no memory holds still finds its memory; without
// one, the same question finds nothing.
func TestSearchFusesSemantic(t *testing.T) {
	d := memdir.Open(filepath.Join(t.TempDir(), "memory"), memdir.Live)
	seed(t, d)
	const path = "/p/p1/search?q=how+do+we+ship+a+release"
	plain := serve(t, d)
	plain.enter(t)
	if _, body := plain.get(t, path); !strings.Contains(body, "No matches.") {
		t.Fatalf("without a semantic ranking the question found something:\n%s", body)
	}
	f := serveProjects(t, d, func() ([]Project, error) {
		return []Project{{ID: "p1", Label: "/src/p1", Dir: d, Semantic: nearDeploy{}}}, nil
	})
	f.enter(t)
	if _, body := f.get(t, path); !strings.Contains(body, "project_deploy_checklist.md") {
		t.Errorf("with a semantic ranking, the search page misses the deploy checklist:\n%s", body)
	}
}
