package dream

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
)

// distinctFacts writes n distinct project facts into 28 daily logs under
// dir, as scripts/bench-dream-facts.awk does: each entry names a
// component and says something in seven made-up words of its own, beside
// the project's everyday words.
func distinctFacts(tb testing.TB, dir string, n int) {
	tb.Helper()
	cons, vows := strings.Fields("b c d f g h j k l m n p r s t v w z q y"), strings.Fields("a e i o u")
	var syl []string
	for _, c := range cons {
		for _, v := range vows {
			syl = append(syl, c+v)
		}
	}
	word := func(k int) string { return syl[k%100] + syl[k/100%100] + syl[k/10000%100] + "x" }
	types := strings.Fields("project reference feedback user")
	comp := strings.Fields("dream sync index search viewer daemon hook store logs topics")
	per, k := n/28, 0
	for d := range 28 {
		date := fmt.Sprintf("2026-10-%02d", d+1)
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", date)
		for i := range per {
			c := comp[k%10]
			fmt.Fprintf(&b, "- %02d:%02d [%s] %s %s %s: %s %s %s in the memdir %s part, about %s and %s.\n",
				8+i*10/per, i*600/per%60, types[k%4], c, word(8*k), word(8*k+1), word(8*k+2),
				word(8*k+3), word(8*k+4), c, word(8*k+5), word(8*k+6))
			k++
		}
		path := filepath.Join(dir, "logs", "2026", "10", date+".md")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// liveMB is the live heap after a collection, in MB.
func liveMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / 1e6
}

// BenchmarkDreamDistinct dreams 7,000 distinct facts one phase at a time
// and reports the live heap after each: after matching (MB-matched: the
// topics' terms and the candidate indexes) and after planning (MB-planned:
// the journal). Where the memory goes:
//
//	go test ./dream -run '^$' -bench DreamDistinct -benchtime 1x -memprofile mem.out
//
// scripts/bench-dream measures the whole process at 7,000 to 112,000.
func BenchmarkDreamDistinct(b *testing.B) {
	src := filepath.Join(b.TempDir(), "src")
	if _, err := memdir.Open(src, memdir.Log).Init(); err != nil {
		b.Fatal(err)
	}
	distinctFacts(b, src, 7000)
	var matched, planned float64
	for i := range b.N {
		b.StopTimer()
		dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
		if err := copyTree(src, dir); err != nil {
			b.Fatal(err)
		}
		d := memdir.Open(dir, memdir.Log).With(memdir.WithClock(func() time.Time { return testNow }))
		b.StartTimer()
		opts := &Options{Dir: d}
		s, err := gather(d)
		if err != nil {
			b.Fatal(err)
		}
		rep := newReport(d.Path, testNow, opts)
		bi := newBuiltin(s, testNow, rep)
		for _, e := range s.entries {
			bi.add(e)
		}
		matched += liveMB()
		p := &planner{d: d, s: s, now: testNow, rep: rep, archive: map[string]bool{}, busy: map[string]bool{}}
		if err := p.plan(bi.result(), bi.distilled(s.entries)); err != nil {
			b.Fatal(err)
		}
		planned += liveMB()
		a := &attempt{opts: opts, app: &applier{dir: d.Path, crash: newCrashHook()}}
		if err := a.apply(p.j); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(matched/float64(b.N), "MB-matched")
	b.ReportMetric(planned/float64(b.N), "MB-planned")
}
