package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/memdir"
)

// benchServer is a server over a live-mode directory of n topics (and
// its index).
func benchServer(b *testing.B, n int) *Server {
	b.Helper()
	dir := b.TempDir()
	for i := range n {
		data := fmt.Sprintf("---\nname: Topic %d word%d\ndescription: about deploys and caches %d\ntype: project\n---\n\nThe service word%d runs on port %d behind the gateway.\n", i, i, i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("project_topic_%d.md", i)), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	d := memdir.Open(dir, memdir.Live)
	if _, err := d.Rebuild(); err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Open: func(string, Agent) (*Project, error) { return &Project{Dir: memdir.Open(dir, memdir.Live)}, nil }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.closeIndexes)
	return s
}

// benchSession serves a live-mode directory of n topics (and its index)
// to an in-process client.
func benchSession(b *testing.B, n int) *mcp.ClientSession {
	b.Helper()
	s := benchServer(b, n)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.mcp.Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

func benchCall(b *testing.B, cs *mcp.ClientSession, name string, args map[string]any) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %v", name, err, res)
	}
}

// BenchmarkAdd adds one new memory per iteration to 10,000 topics, their
// index as `memdir index --rebuild` writes it (fitted, past the caps).
func BenchmarkAdd(b *testing.B) {
	cs := benchSession(b, 10000)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		benchCall(b, cs, "memory_add", map[string]any{"type": "user", "name": fmt.Sprintf("Fresh %d", i), "text": fmt.Sprintf("Unrelated note number q%dq.", i)})
	}
}

// BenchmarkSearch searches 10,000 topics for a word one of them holds.
func BenchmarkSearch(b *testing.B) {
	cs := benchSession(b, 10000)
	benchCall(b, cs, "memory_search", map[string]any{"query": "word1"})
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		benchCall(b, cs, "memory_search", map[string]any{"query": fmt.Sprintf("word%d", i%10000)})
	}
}

// BenchmarkSearchServerTime is the server's own time for a warm
// memory_search of 10,000 topics (no change since the last search): the
// tool handler alone, without the protocol's encoding and transport.
func BenchmarkSearchServerTime(b *testing.B) {
	s := benchServer(b, 10000)
	ctx := context.Background()
	req := &mcp.CallToolRequest{}
	if _, _, err := s.search(ctx, req, searchInput{Query: "word1"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		_, out, err := s.search(ctx, req, searchInput{Query: fmt.Sprintf("word%d", i%10000)})
		if err != nil || len(out.Results) == 0 {
			b.Fatalf("search word%d: %v, %d results", i%10000, err, len(out.Results))
		}
	}
}

// BenchmarkShow reads one topic of 10,000 by name.
func BenchmarkShow(b *testing.B) {
	cs := benchSession(b, 10000)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		benchCall(b, cs, "memory_show", map[string]any{"name_or_file": fmt.Sprintf("project_topic_%d.md", i%10000)})
	}
}
