package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
)

// benchDir writes n generated topics (the evaluation's distractors) with
// stamps well in the past, so that no file is racy.
func benchDir(b testing.TB, n int) *memdir.Dir { return benchDirT(b, n) }

func benchDirT(b testing.TB, n int) *memdir.Dir {
	b.Helper()
	dir := b.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range n {
		tp := distractor(i)
		content := fmt.Sprintf("---\nname: %s\ndescription: %s\ntype: %s\ncreated: 2026-01-02T10:00:00Z\nmodified: 2026-01-02T10:00:00Z\n---\n\n%s\n", tp.name, tp.desc, tp.typ, tp.body)
		p := filepath.Join(dir, tp.file)
		writeFile(b, p, content)
		if err := os.Chtimes(p, old, old); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.Chtimes(dir, old, old); err != nil {
		b.Fatal(err)
	}
	d := memdir.Open(dir, memdir.Live)
	d.Now = func() time.Time { return testNow }
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
	p := filepath.Join(d.Path, distractor(7).file)
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
