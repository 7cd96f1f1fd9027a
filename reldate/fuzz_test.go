package reldate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func FuzzRewrite(f *testing.F) {
	for _, tc := range rewriteCases {
		f.Add(tc.in, int64(tc.ref.Unix()))
	}
	for _, in := range negatives {
		f.Add(in, fri.Unix())
	}
	f.Add("end of next week and the week after; by Friday (2026-11-27) `x` tomorrow", fri.Unix())
	f.Fuzz(func(t *testing.T, in string, unix int64) {
		// Keep the reference within years 1000-9000 so every year prints
		// in four digits.
		ref := time.Unix(unix%(200e9), 0).UTC()
		if y := ref.Year(); y < 1000 || y > 9000 {
			ref = fri
		}
		out, changes := Rewrite(in, ref)
		checkChanges(t, in, out, changes)
		if twice, again := Rewrite(out, ref); twice != out {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, out, twice, again)
		}
	})
}

// entries builds n short log entries in the style agents write.
func entries(n int) []string {
	forms := []string{
		"10:%02d [project] Release freeze: merge freeze begins next Thursday for the mobile cut %d.",
		"10:%02d [feedback] Testing policy: integration tests must hit a real database (%d).",
		"11:%02d remember that staging deploys need the VPN, ticket #%d",
		"12:%02d [project] Retro tomorrow afternoon; ship in 3 days, review by Friday, entry %d.",
		"13:%02d [reference] Dashboards at https://grafana.example.com/d/%d, see `make dash`.",
		"14:%02d [project] The outage %d started 2 days ago and ends by end of the week.",
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("- "+forms[i%len(forms)], i%60, i)
	}
	return out
}

func BenchmarkRewrite11000(b *testing.B) {
	es := entries(11000)
	b.ReportAllocs()
	for b.Loop() {
		for _, e := range es {
			Rewrite(e, fri)
		}
	}
}

func TestEntriesRewrite(t *testing.T) {
	// The benchmark input must exercise rewriting, not just scanning.
	changed := 0
	for _, e := range entries(12) {
		if out, _ := Rewrite(e, fri); out != e {
			changed++
			if strings.Contains(out, "next Thursday") {
				t.Errorf("entry not rewritten: %q", out)
			}
		}
	}
	if changed != 6 {
		t.Errorf("changed %d of 12 entries, want 6", changed)
	}
}

// TestRewriteIdempotentCombos strings relative-date words together at random
// (with a fixed seed) to reach combinations the table does not: a phrase
// whose replacement lands next to other phrase words must not match again.
func TestRewriteIdempotentCombos(t *testing.T) {
	vocab := []string{
		"today", "tonight", "tomorrow", "yesterday", "morning", "night",
		"this", "next", "last", "the", "day", "after", "before", "end", "of",
		"week", "weekend", "month", "year", "Friday", "Monday", "Sunday",
		"coming", "past", "by", "until", "in", "a", "3", "two", "2026", "days",
		"weeks", "ago", "from", "now", "time", "or", "EOW", "EOM", "about",
		"2026-11-26", "(", ")", ",", "`", "-", "'s", ".", "\n", "\n\n",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := 2 + rng.IntN(8); n > 0; n-- {
			b.WriteString(vocab[rng.IntN(len(vocab))])
			if rng.IntN(4) > 0 {
				b.WriteByte(' ')
			}
		}
		in := b.String()
		ref := fri.AddDate(0, 0, rng.IntN(400))
		out, changes := Rewrite(in, ref)
		checkChanges(t, in, out, changes)
		if twice, again := Rewrite(out, ref); twice != out {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, out, twice, again)
		}
	}
}
