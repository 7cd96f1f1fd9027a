package search

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkList measures what stats and a timeline read of the engine
// at n topics, as `memdir stats` and `memdir timeline` run them with the
// search index built: every topic, the index's state, the recall counts.
func BenchmarkList(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := benchDir(b, n)
			if _, err := Open(d).refresh(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				ix := Open(d)
				if _, _, err := ix.List(); err != nil {
					b.Fatal(err)
				}
				ix.IndexState()
				ix.Recalls()
			}
		})
	}
}

// BenchmarkTopics measures what a long-running process's stats and
// timelines read through Topics at 10,000 topics: after no change (the watcher
// says so; nothing is read), after one topic was rewritten (that file
// alone statted and read again), and opened afresh (cold: loaded from the
// search index).
func BenchmarkTopics(b *testing.B) {
	d := benchDir(b, 10000)
	if _, err := Open(d).refresh(); err != nil {
		b.Fatal(err)
	}
	tp := OpenTopics(d)
	defer tp.Close()
	both := func(b *testing.B) {
		if _, _, err := tp.List(); err != nil {
			b.Fatal(err)
		}
		tp.IndexState()
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
			if _, _, err := cold.List(); err != nil {
				b.Fatal(err)
			}
			cold.IndexState()
			if cold.indexed != 1 {
				b.Fatalf("%d loads from the index, want 1", cold.indexed)
			}
			cold.Close()
		}
	})
}
