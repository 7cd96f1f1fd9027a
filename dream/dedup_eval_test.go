package dream

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/reldate"
	"github.com/memdir/memdir/typesx"
)

// labelledPair is one pair of testdata/dedup: two entries of one type, and
// whether the second says what the first says.
type labelledPair struct {
	dup  bool
	typ  typesx.Type
	a, b dailylog.Entry
	line int
}

// readPairs parses a labelled pair file (see testdata/dedup/pairs.txt).
func readPairs(t *testing.T, path string) []labelledPair {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []labelledPair
	var cur *labelledPair
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "== "):
			f := strings.Fields(line)
			typ, err := typesx.Parse(f[len(f)-1])
			if len(f) != 3 || err != nil || f[1] != "dup" && f[1] != "distinct" {
				t.Fatalf("%s:%d: want \"== dup|distinct <type>\"", path, i+1)
			}
			out = append(out, labelledPair{dup: f[1] == "dup", typ: typ, line: i + 1})
			cur = &out[len(out)-1]
		default:
			title, text, ok := strings.Cut(" "+line, " :: ") // the title may be empty
			if !ok || cur == nil {
				t.Fatalf("%s:%d: want \"Title :: text\" after a header", path, i+1)
			}
			e := dailylog.Entry{Type: cur.typ, Title: strings.TrimSpace(title), Text: strings.TrimSpace(text)}
			switch {
			case cur.a.Text == "":
				cur.a = e
			case cur.b.Text == "":
				cur.b = e
			default:
				t.Fatalf("%s:%d: a pair has two entries", path, i+1)
			}
		}
	}
	return out
}

// keptOnce distils the pair's first entry, then in a later dream its
// second, and reports whether memory holds the fact once (one of the two
// texts is gone: dropped as a duplicate or replaced by the other) rather
// than twice.
func keptOnce(t *testing.T, p labelledPair) bool {
	t.Helper()
	dir := t.TempDir()
	d := memdir.Open(dir, memdir.Log)
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	for day, e := range []dailylog.Entry{p.a, p.b} {
		at := testNow.AddDate(0, 0, day)
		d = d.With(memdir.WithClock(func() time.Time { return at }))
		if _, err := dailylog.Append(dir, at, e); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), Options{Dir: d}); err != nil {
			t.Fatal(err)
		}
	}
	// Relative dates are compared as dream writes them, made absolute
	// against the day each entry was written.
	texts := [2]string{}
	for day, e := range []dailylog.Entry{p.a, p.b} {
		txt, _ := reldate.Rewrite(e.Text, testNow.AddDate(0, 0, day))
		texts[day] = squash(txt)
	}
	var bodies []string
	for _, f := range mustTopicFiles(t, d) {
		tp, err := d.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, squash(tp.Body))
	}
	all := strings.Join(bodies, "\n")
	keptA, keptB := strings.Contains(all, texts[0]), strings.Contains(all, texts[1])
	if !keptA && !keptB {
		t.Fatalf("line %d: both entries are gone:\n%s", p.line, all)
	}
	return !keptA || !keptB
}

// measure returns precision and recall of "kept once" over the pairs,
// logging each pair it gets wrong.
func measure(t *testing.T, pairs []labelledPair) (precision, recall float64) {
	t.Helper()
	var tp, fp, fn int
	for _, p := range pairs {
		once := keptOnce(t, p)
		switch {
		case once && p.dup:
			tp++
		case once:
			fp++
			t.Logf("line %d: distinct facts, one was dropped: %q / %q", p.line, p.a.Text, p.b.Text)
		case p.dup:
			fn++
			t.Logf("line %d: one fact, kept twice: %q / %q", p.line, p.a.Text, p.b.Text)
		}
	}
	precision, recall = 1, 1
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	return precision, recall
}

// TestOneFactOnce measures how well dream keeps one fact once, end to
// end through two dreams per pair, on the labelled pairs of
// testdata/dedup. Print the figures with
//
//	go test ./dream -run TestOneFactOnce -v
func TestOneFactOnce(t *testing.T) {
	for _, tc := range []struct {
		file                 string
		minPrecision, minRec float64
	}{
		{"pairs.txt", 0.95, 0.9},
		{"heldout.txt", 0.9, 0.8},
		{"nearmiss.txt", 0.9, 0.9},
	} {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			pairs := readPairs(t, filepath.Join("testdata", "dedup", tc.file))
			dups := 0
			for _, p := range pairs {
				if p.dup {
					dups++
				}
			}
			precision, recall := measure(t, pairs)
			t.Log(fmt.Sprintf("%s: %d pairs (%d duplicates, %d distinct): precision %.2f, recall %.2f",
				tc.file, len(pairs), dups, len(pairs)-dups, precision, recall))
			if precision < tc.minPrecision || recall < tc.minRec {
				t.Errorf("precision %.2f, recall %.2f; want at least %.2f and %.2f", precision, recall, tc.minPrecision, tc.minRec)
			}
		})
	}
}
