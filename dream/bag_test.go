package dream

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/memdir"
)

// TestBag: a bag counts, lists and gives back the terms it was made of.
func TestBag(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
	}{
		{"empty", ""},
		{"one term", "runbooks"},
		{"repeats", "Runbooks live in docs/runbooks; the runbooks index lists every runbook."},
		{"numbers", "Service 12 answers in 60 ms, 12 times a day."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := memdir.TermsOf(tc.text)
			b := bagOf(want)
			if diff := cmp.Diff(want, b.terms()); diff != "" {
				t.Errorf("terms (-want +got):\n%s", diff)
			}
			if len(b) != want.Len() {
				t.Errorf("len = %d, want %d", len(b), want.Len())
			}
			got := memdir.Terms{}
			b.each(func(term string, n int) {
				if _, dup := got[term]; dup {
					t.Errorf("each gave %q twice", term)
				}
				got[term] = n
			})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("each (-want +got):\n%s", diff)
			}
			for term, n := range want {
				if c := b.count(term); c != n {
					t.Errorf("count(%q) = %d, want %d", term, c, n)
				}
			}
			if c := b.count("absentx"); c != 0 {
				t.Errorf("count of an absent term = %d, want 0", c)
			}
		})
	}
}
