package viewer

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// BenchmarkTyping searches the memory directory $MEMDIR_UI_LARGE (seeded
// by TestLargeStore) as the search page does while "canary rollback" is
// typed, a keystroke at a time, with a warm search.Live, at a few result
// caps: each hit reads its topic file again for its snippet.
func BenchmarkTyping(b *testing.B) {
	dir := os.Getenv("MEMDIR_UI_LARGE")
	if dir == "" {
		b.Skip("MEMDIR_UI_LARGE is not set: scripts/bench-ui sets it")
	}
	l := search.OpenLive(memdir.Open(dir, memdir.Live))
	defer l.Close()
	ctx := context.Background()
	typed := "canary rollback"
	for _, limit := range []int{50, 20, 10} {
		b.Run(fmt.Sprint("limit-", limit), func(b *testing.B) {
			for range b.N {
				for i := 1; i <= len(typed); i++ {
					if typed[i-1] == ' ' {
						continue
					}
					if _, err := l.Search(ctx, search.Query{Text: typed[:i], NoRecall: true, Limit: limit}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
