package mcpserver

import (
	"context"
	"testing"

	"github.com/memdir/memdir/memdir"
)

// TestProjectSharesCache checks that every call's project gets the
// server's one memdir.Cache (an add's duplicate check reuses the terms
// earlier adds worked out), and that an opener's own cache is kept.
func TestProjectSharesCache(t *testing.T) {
	dir := t.TempDir()
	own := memdir.NewCache()
	withOwn := false
	s, err := New(Options{Open: func(string, Agent) (*Project, error) {
		d := memdir.Open(dir, memdir.Live)
		if withOwn {
			d = d.With(memdir.WithCache(own))
		}
		return &Project{Dir: d}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.project(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.project(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Dir == b.Dir || a.Dir.Cache() == nil || a.Dir.Cache() != b.Dir.Cache() {
		t.Fatalf("two calls' projects: caches %p and %p; want one shared, non-nil cache", a.Dir.Cache(), b.Dir.Cache())
	}
	withOwn = true
	if c, err := s.project(context.Background(), nil); err != nil || c.Dir.Cache() != own {
		t.Fatalf("an opener's own cache was replaced (%v)", err)
	}
}
