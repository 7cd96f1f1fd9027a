package overview

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memdir/memdirtest"
	"github.com/memdir/memdir/search"
)

// benchDir writes n topics of the benchmark corpus and builds their
// search index.
func benchDir(b *testing.B, n int) *memdir.Dir {
	b.Helper()
	dir := b.TempDir()
	if err := memdirtest.Write(dir, n, testNow); err != nil {
		b.Fatal(err)
	}
	d := memdir.Open(dir, memdir.Live)
	d = d.With(memdir.WithClock(func() time.Time { return testNow }))
	if _, err := search.Open(d).Search(context.Background(), search.Query{Text: "zzzzzz", NoRecall: true}); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkStats measures Stats of n topics read from the files, as
// `memdir stats` runs it, and from a watched search.Topics after no
// change, as the viewer's stats page.
func BenchmarkStats(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		d := benchDir(b, n)
		opts := StatsOptions{Schedule: "0 3 * * *"}
		b.Run(fmt.Sprint("files/", n), func(b *testing.B) {
			for range b.N {
				if _, err := (&Reader{Dir: d}).Stats(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprint("topics/", n), func(b *testing.B) {
			tp := search.OpenTopics(d)
			defer tp.Close()
			r := &Reader{Dir: d, Source: tp}
			for range b.N {
				if _, err := r.Stats(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTimeline measures a month's timeline of n topics from their
// stamps (memory not in git), read from the files and from a watched
// search.Topics, as the viewer's stream page asks for it.
func BenchmarkTimeline(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		d := benchDir(b, n)
		q := TimelineQuery{From: testNow.AddDate(0, -1, 0), To: testNow}
		b.Run(fmt.Sprint("files/", n), func(b *testing.B) {
			for range b.N {
				if _, err := (&Reader{Dir: d}).Timeline(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprint("topics/", n), func(b *testing.B) {
			tp := search.OpenTopics(d)
			defer tp.Close()
			r := &Reader{Dir: d, Source: tp}
			for range b.N {
				if _, err := r.Timeline(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
