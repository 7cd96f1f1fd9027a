package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	benchcorpus "github.com/memdir/memdir/memdir/memdirtest"
)

// benchDir writes n topics of the benchmark corpus (memdir/memdirtest, the
// one memdir's benchmarks and scripts/benchcli use; imported under another
// name, since this package's tests have a corpus of their own) and their
// MEMORY.md, with stamps an hour in the past, so that no file is racy.
func benchDir(b testing.TB, n int) *memdir.Dir {
	b.Helper()
	dir := b.TempDir()
	if err := benchcorpus.Write(dir, n, testNow); err != nil {
		b.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	paths := []string{dir}
	for _, e := range entries {
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	for _, p := range paths {
		if err := os.Chtimes(p, old, old); err != nil {
			b.Fatal(err)
		}
	}
	d := memdir.Open(dir, memdir.Live)
	d = d.With(memdir.WithClock(func() time.Time { return testNow }))
	return d
}

// BenchmarkBuild builds the index of n topics from nothing.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := benchDir(b, n)
			state := filepath.Join(d.Path, filepath.FromSlash(StateDir))
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				os.RemoveAll(state)
				b.StartTimer()
				if _, err := Open(d).refresh(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearch is one search as a fresh process makes it: load the
// index, check every file's stamp, run the query, read the hits' files.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := benchDir(b, n)
			q := Query{Text: "deploy staging", NoRecall: true}
			if _, err := Open(d).Search(context.Background(), q); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := Open(d).Search(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchAfterEdit is the first search after one topic file was
// rewritten in place.
func BenchmarkSearchAfterEdit(b *testing.B) {
	d := benchDir(b, 10000)
	q := Query{Text: "deploy staging", NoRecall: true}
	if _, err := Open(d).Search(context.Background(), q); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(d.Path, benchcorpus.Topic(7, testNow).File)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		data, _ := os.ReadFile(p)
		writeFile(b, p, string(data)+fmt.Sprintf("Edit %d.\n", i))
		b.StartTimer()
		if _, err := Open(d).Search(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad reads and checks the index of 10,000 topics, as every
// search starts.
func BenchmarkLoad(b *testing.B) {
	d := benchDir(b, 10000)
	ix := Open(d)
	if _, err := ix.Search(context.Background(), Query{Text: "deploy", NoRecall: true}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if ix.load(baseFile) == nil {
			b.Fatal("no index")
		}
	}
}

// BenchmarkLiveSearch is a warm search of a Live index of 10,000 topics,
// as the MCP server makes it after no change: no scan, no write.
func BenchmarkLiveSearch(b *testing.B) {
	d := benchDir(b, 10000)
	l := OpenLive(d)
	defer l.Close()
	q := Query{Text: "deploy staging"}
	if _, err := l.Search(context.Background(), q); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := l.Search(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if l.scans != 1 {
		b.Fatalf("%d scans, want 1", l.scans)
	}
}

// BenchmarkLiveSearchAfterEdit is a search of a Live index of 10,000
// topics right after one topic was edited in place, as the MCP server
// makes one after an agent's edit: it looks at the edited file alone.
func BenchmarkLiveSearchAfterEdit(b *testing.B) {
	d := benchDir(b, 10000)
	l := OpenLive(d)
	defer l.Close()
	q := Query{Text: "deploy staging", NoRecall: true}
	if _, err := l.Search(context.Background(), q); err != nil {
		b.Fatal(err)
	}
	ents, err := os.ReadDir(d.Path)
	if err != nil {
		b.Fatal(err)
	}
	var topic string
	for _, e := range ents {
		if memdir.IsTopicFile(e.Name()) {
			topic = filepath.Join(d.Path, e.Name())
			break
		}
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		f, err := os.OpenFile(topic, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "Edit %d: the deploy moved.\n", i)
		f.Close()
		b.StartTimer()
		if _, err := l.Search(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if runtime.GOOS == "linux" && l.scans != 1 {
		b.Fatalf("%d scans, want 1: the edits were not looked at alone", l.scans)
	}
}
