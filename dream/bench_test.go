package dream

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// BenchmarkDream distils a month of logs (30 days, 30 entries a day, 60
// topics) from scratch. scripts/bench-dream measures a whole year as a
// process.
func BenchmarkDream(b *testing.B) {
	src := filepath.Join(b.TempDir(), "src")
	d := memdir.Open(src, memdir.Log)
	if _, err := d.Init(); err != nil {
		b.Fatal(err)
	}
	types := []typesx.Type{typesx.Project, typesx.Reference, typesx.Feedback, typesx.User}
	for day := range 30 {
		at := time.Date(2026, 10, 1+day, 9, 0, 0, 0, time.UTC)
		for i := range 30 {
			n := day*30 + i
			e := dailylog.Entry{Type: types[n%4], Title: fmt.Sprintf("Service%d", n%60), Text: fmt.Sprintf("Service%d answers in %d ms by next Thursday.", n%60, n)}
			if _, err := dailylog.Append(src, at, e); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
		if err := copyTree(src, dir); err != nil {
			b.Fatal(err)
		}
		dd := memdir.Open(dir, memdir.Log)
		dd = dd.With(memdir.WithClock(func() time.Time { return testNow }))
		b.StartTimer()
		if _, err := Run(context.Background(), Options{Dir: dd}); err != nil {
			b.Fatal(err)
		}
	}
}
