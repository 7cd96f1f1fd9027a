package search

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkStats measures Stats of n topics, as `memdir stats` and the
// viewer's stats page run it, with the search index built.
func BenchmarkStats(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := benchDir(b, n)
			if _, err := Open(d).refresh(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := Open(d).Stats(context.Background(), StatsOptions{Schedule: "0 3 * * *"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTimeline measures a month's timeline of n topics from their
// stamps (memory not in git), as the viewer's stream page asks for it.
func BenchmarkTimeline(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := benchDir(b, n)
			if _, err := Open(d).refresh(); err != nil {
				b.Fatal(err)
			}
			q := TimelineQuery{From: testNow.AddDate(0, -1, 0), To: testNow}
			b.ResetTimer()
			for range b.N {
				if _, err := Open(d).Timeline(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTopics measures a long-running process's Stats and month of
// Timeline through Topics at 10,000 topics: after no change (the watcher
// says so; nothing is read), after one topic was rewritten (that file
// alone statted and read again), and opened afresh (cold: loaded from the
// search index).
func BenchmarkTopics(b *testing.B) {
	d := benchDir(b, 10000)
	if _, err := Open(d).refresh(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	q := TimelineQuery{From: testNow.AddDate(0, -1, 0), To: testNow}
	tp := OpenTopics(d)
	defer tp.Close()
	both := func(b *testing.B) {
		if _, err := tp.Stats(ctx, StatsOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, err := tp.Timeline(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	both(b)
	b.Run("unchanged", func(b *testing.B) {
		for range b.N {
			both(b)
		}
	})
	files, err := d.TopicFiles()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("one-edit", func(b *testing.B) {
		for i := range b.N {
			b.StopTimer()
			writeFile(b, filepath.Join(d.Path, files[i%len(files)]), topicFile("project", "Edited", fmt.Sprint("edit ", i), "Body."))
			b.StartTimer()
			both(b)
		}
	})
	// A Topics opened afresh, as the viewer's first page after it
	// starts: it loads from the search index, then answers.
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			cold := OpenTopics(d)
			if _, err := cold.Stats(ctx, StatsOptions{}); err != nil {
				b.Fatal(err)
			}
			if _, err := cold.Timeline(ctx, q); err != nil {
				b.Fatal(err)
			}
			if cold.indexed != 1 {
				b.Fatalf("%d loads from the index, want 1", cold.indexed)
			}
			cold.Close()
		}
	})
}
