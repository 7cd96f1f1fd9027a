package memdir

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
)

// benchWords is the vocabulary of generated topics: ordinary engineering
// words, so descriptions look like real ones to the similarity check.
var benchWords = strings.Fields(`build cache database migration staging deploy release test
fixture mock integration service queue worker retry timeout config flag rollout
schema index query latency budget owner review branch merge freeze mobile api
client server token rotate secret vault metrics alert pager incident runbook
logging trace span sample backend frontend react router style lint format
module package vendor upgrade pin version docker image cluster node region`)

// benchSentence is a deterministic sentence of n words for topic i.
func benchSentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for k := range w {
		w[k] = benchWords[r.IntN(len(benchWords))]
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// benchRequest is the add of topic i: a numbered name (numbers keep
// topics apart in the similarity check), a hook of 6 to 9 words and a
// body that makes a topic file of about 350 to 800 bytes, as
// scripts/benchcli generates them.
func benchRequest(i int) AddRequest {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	var body []string
	for size := 0; size < 100+r.IntN(350); {
		s := benchSentence(r, 8+r.IntN(10))
		body = append(body, s)
		size += len(s) + 1
	}
	return AddRequest{
		Type:        typesx.Types[i%len(typesx.Types)],
		Name:        fmt.Sprintf("%s %d", strings.TrimSuffix(benchSentence(r, 3), "."), i),
		Text:        strings.Join(body, " "),
		Description: fmt.Sprintf("%s (%d)", strings.TrimSuffix(benchSentence(r, 6+r.IntN(4)), "."), i),
		Why:         benchSentence(r, 9),
	}
}

// benchDir makes a memory directory holding n topics and the MEMORY.md
// that indexes them, written directly rather than through Add so that a
// 10,000-topic directory takes seconds, not minutes.
func benchDir(tb testing.TB, n int) *Dir {
	tb.Helper()
	d := Open(tb.TempDir(), Live)
	now := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	d.Now = func() time.Time { return now }
	if _, err := d.Init(); err != nil {
		tb.Fatal(err)
	}
	metas := make([]index.Meta, n)
	for i := range n {
		t := d.newTopic(benchRequest(i))
		t.File = FileName(t.Type, t.Name)
		data, err := t.Marshal()
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.Path, t.File), data, 0o644); err != nil {
			tb.Fatal(err)
		}
		metas[i] = index.Meta{Entry: entryOf(t), Type: t.Type, Modified: t.Modified}
	}
	ix := index.Rebuild(index.Parse(nil), metas)
	if err := atomicfile.WriteFile(filepath.Join(d.Path, IndexFile), ix.Bytes(), 0o644); err != nil {
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
				res, err := d.Add(benchRequest(i))
				if err != nil {
					b.Fatal(err)
				}
				if res.Action != Created {
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
		if res, err := d.Add(benchRequest(i)); err != nil || res.Action != Created {
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
		res, err := d.Add(benchRequest(i))
		if err != nil {
			t.Fatal(err)
		}
		if res.Action != Created {
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
