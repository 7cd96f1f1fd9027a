package memdir_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memdir/memdirtest"
)

// benchDir makes a memory directory holding n generated topics and the
// MEMORY.md that indexes them (see memdirtest).
func benchDir(tb testing.TB, n int) *memdir.Dir {
	tb.Helper()
	now := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	d := memdir.Open(tb.TempDir(), memdir.Live, memdir.WithClock(func() time.Time { return now }))
	if _, err := d.Init(); err != nil {
		tb.Fatal(err)
	}
	if err := memdirtest.Write(d.Path, n, now); err != nil {
		tb.Fatal(err)
	}
	return d
}

// BenchmarkAdd adds one new topic per iteration to a directory that
// already holds N topics: lock, index read, duplicate check, topic write,
// index rewrite, each write fsynced.
func BenchmarkAdd(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := benchDir(b, n)
			i := n
			for b.Loop() {
				res, err := d.Add(memdirtest.Request(i))
				if err != nil {
					b.Fatal(err)
				}
				if res.Action != memdir.Created {
					b.Fatalf("add %d: %s %s, want a new topic", i, res.Action, res.File)
				}
				i++
			}
		})
	}
}

// BenchmarkAddFitted10000 is BenchmarkAdd at 10,000 topics after `index
// --fit` moved what does not fit into overflow indexes: how a large
// memory is meant to be kept, and MEMORY.md is small again.
func BenchmarkAddFitted10000(b *testing.B) {
	d := benchDir(b, 10000)
	if _, err := d.Fit(); err != nil {
		b.Fatal(err)
	}
	i := 10000
	for b.Loop() {
		if res, err := d.Add(memdirtest.Request(i)); err != nil || res.Action != memdir.Created {
			b.Fatalf("add %d: %v %v, want a new topic", i, res, err)
		}
		i++
	}
}

// BenchmarkList10000 reads and parses every topic of a 10,000-topic
// directory, as `memdir list` does.
func BenchmarkList10000(b *testing.B) {
	d := benchDir(b, 10000)
	for b.Loop() {
		topics, problems, err := d.List()
		if err != nil || len(problems) > 0 || len(topics) != 10000 {
			b.Fatalf("List = %d topics, %v, %v; want 10000 clean", len(topics), problems, err)
		}
	}
}

// BenchmarkLoadIndex reads MEMORY.md and cuts it to the load caps, as
// `memdir index` and session start do.
func BenchmarkLoadIndex(b *testing.B) {
	for _, n := range []int{200, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := benchDir(b, n)
			for b.Loop() {
				data, err := d.IndexBytes()
				if err != nil {
					b.Fatal(err)
				}
				if v := index.Load(data, index.DefaultCaps); len(v.Loaded)+len(v.Dropped) != n {
					b.Fatalf("loaded %d + dropped %d entries, want %d", len(v.Loaded), len(v.Dropped), n)
				}
			}
		})
	}
}

// TestBenchRequestsAreDistinct guards the benchmarks' premise: every
// generated add creates a topic rather than merging into an earlier one.
func TestBenchRequestsAreDistinct(t *testing.T) {
	d := benchDir(t, 50)
	for i := 50; i < 60; i++ {
		res, err := d.Add(memdirtest.Request(i))
		if err != nil {
			t.Fatal(err)
		}
		if res.Action != memdir.Created {
			t.Errorf("add %d: %s %s (matched %s), want created", i, res.Action, res.File, res.MatchedBy)
		}
	}
	files, err := d.TopicFiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 60 {
		t.Errorf("got %d topic files, want 60", len(files))
	}
}
