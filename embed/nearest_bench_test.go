package embed

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/fakeembed"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// BenchmarkFusedSearch is one search at 10,000 topics whose every vector
// (768 dimensions, as nomic-embed-text gives) is already kept, fused with
// the ranking by meaning and by words alone: what a recall hook with
// embeddings pays per prompt beyond the server's answer for the question.
func BenchmarkFusedSearch(b *testing.B) {
	dir := b.TempDir()
	old := time.Now().Add(-time.Hour) // no stamp racy
	for i := range 10000 {
		body := topic(fmt.Sprintf("Topic %d", i), fmt.Sprintf("About service %d and its billing owner", i), fmt.Sprintf("Service %d syncs offline orders and pages the owner on outages.", i))
		p := filepath.Join(dir, fmt.Sprintf("project_topic_%d.md", i))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			b.Fatal(err)
		}
	}
	srv := fakeembed.Start()
	srv.Dims = 768
	defer srv.Close()
	d := memdir.Open(dir, memdir.Live)
	q := search.Query{Text: "who owns billing", NoRecall: true}
	for _, c := range []struct {
		name string
		ix   *search.Index
	}{
		{"words", search.Open(d)},
		{"fused", search.Open(d).WithSemantic(New(d, Config{URL: srv.URL + "/api/embed", Model: "m", Timeout: time.Minute}, io.Discard))},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := c.ix.Search(context.Background(), q); err != nil { // builds the index, embeds every topic
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := c.ix.Search(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
