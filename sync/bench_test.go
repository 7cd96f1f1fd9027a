package memsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
)

// BenchmarkSyncNothingToDo times a sync that finds nothing changed on
// either side, with 1,000 topics in one project, over file:// and over a
// git daemon on 127.0.0.1.
func BenchmarkSyncNothingToDo(b *testing.B) {
	for _, tr := range []string{"file", "daemon"} {
		b.Run(tr, func(b *testing.B) {
			bare := bareRemote(b)
			url := "file://" + bare
			if tr == "daemon" {
				url = gitDaemon(b, bare)
			}
			m := newMachine(b, url)
			writeTopics(b, m, "reference", 1000)
			opts := Options{Home: m.home, Projects: []Project{{Dir: m.mem, Root: m.root}}, LockTimeout: 10 * time.Second}
			if _, err := Sync(context.Background(), opts); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := Sync(context.Background(), opts)
				if err != nil {
					b.Fatal(err)
				}
				if res.Pushed {
					b.Fatal("a sync with nothing to do pushed")
				}
			}
		})
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
