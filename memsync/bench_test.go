package memsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
)

// benchTopics is the project's size in the benchmarks: 1,000, or
// MEMDIR_SYNC_BENCH_TOPICS.
func benchTopics() int {
	if n, err := strconv.Atoi(os.Getenv("MEMDIR_SYNC_BENCH_TOPICS")); err == nil && n > 0 {
		return n
	}
	return 1000
}

// benchPair is two machines with the same benchTopics topics, synced.
func benchPair(b *testing.B, transport string) (a, c *machine) {
	bare := bareRemote(b)
	url := "file://" + bare
	if transport == "daemon" {
		url = gitDaemon(b, bare)
	}
	a, c = newMachine(b, url), newMachine(b, url)
	writeTopics(b, a, "topic", benchTopics())
	benchSync(b, a)
	benchSync(b, c)
	return a, c
}

func benchSync(b *testing.B, m *machine) *Result {
	res, err := Sync(context.Background(), Options{Home: m.home, Projects: []Project{{Dir: m.mem, Root: m.root}}, LockTimeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// BenchmarkSyncNothingToDo times a sync that finds nothing changed on
// either side, over file:// and over a git daemon on 127.0.0.1.
func BenchmarkSyncNothingToDo(b *testing.B) {
	for _, tr := range []string{"file", "daemon"} {
		b.Run(fmt.Sprintf("%s/topics=%d", tr, benchTopics()), func(b *testing.B) {
			a, _ := benchPair(b, tr)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if res := benchSync(b, a); res.Pushed {
					b.Fatal("a sync with nothing to do pushed")
				}
			}
		})
	}
}

// BenchmarkSyncTenEachWay times the sync of a machine that changed 10
// topics while the remote got 10 other changed topics from another
// machine (whose own sync is not timed).
func BenchmarkSyncTenEachWay(b *testing.B) {
	for _, tr := range []string{"file", "daemon"} {
		b.Run(fmt.Sprintf("%s/topics=%d", tr, benchTopics()), func(b *testing.B) {
			a, c := benchPair(b, tr)
			b.ResetTimer() // the pair's first syncs are not the figure
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				for k := 0; k < 10; k++ {
					simAppendB(b, a, fmt.Sprintf("reference_topic_%04d.md", k), fmt.Sprintf("a %d %d", i, k))
					simAppendB(b, c, fmt.Sprintf("reference_topic_%04d.md", 100+k), fmt.Sprintf("c %d %d", i, k))
				}
				benchSync(b, c)
				b.StartTimer()
				res := benchSync(b, a)
				if !res.Pushed || len(res.Projects[0].Pulled) != 10 {
					b.Fatalf("pulled %d, pushed %v", len(res.Projects[0].Pulled), res.Pushed)
				}
			}
		})
	}
}

func simAppendB(b *testing.B, m *machine, f, line string) {
	name := filepath.Join(m.mem, f)
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(name, append(data, []byte(line+"\n")...), 0o644); err != nil {
		b.Fatal(err)
	}
}

// writeTopics writes n topic files and rebuilds the index.
func writeTopics(b testing.TB, m *machine, prefix string, n int) {
	if err := canonical.ClaimRoot(m.mem, m.root); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("reference_%s_%04d.md", prefix, i)
		text := fmt.Sprintf("---\nname: %s %d\ndescription: Reference number %d\ntype: reference\n---\n\nBody of topic %d, a few words long.\n", prefix, i, i, i)
		if err := os.WriteFile(filepath.Join(m.mem, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := memdir.Open(m.mem, memdir.Live).Rebuild(); err != nil {
		b.Fatal(err)
	}
}
