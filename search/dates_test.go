package search

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestQuestionPeriod(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) // a Sunday
	for _, tc := range []struct {
		in, rest string
		months   []string
	}{
		{"what did we decide in May 2026", "what did we decide in         ", []string{"2026-05"}},
		{"billing in October 2026?", "billing in             ?", []string{"2026-10"}},
		{"what happens on 2026-12-05", "what happens on 2026-12-05", []string{"2026-12"}},
		{"what changed last week", "what changed          ", []string{"2026-11"}},
		{"what launches next month", "what launches           ", []string{"2026-12"}},
		{"deploys yesterday", "deploys          ", []string{"2026-11"}},
		{"which stores open in January", "which stores open in        ", []string{"2026-01", "2027-01"}},
		{"releases in 2025", "releases in     ", months(2025)},
		{"may I use printf", "may I use printf", nil},           // a modal, not a month
		{"postgres 2026 plan", "postgres 2026 plan", nil},       // a bare number
		{"march of the penguins", "march of the penguins", nil}, // no introducer before it
		{"between 2020-01-01 and 2026-01-01", "between 2020-01-01 and 2026-01-01", []string{"2020-01", "2026-01"}},
	} {
		rest, got := questionPeriod(tc.in, now)
		var ms []string
		for _, m := range got {
			ms = append(ms, strings.TrimPrefix(m, dateMark))
		}
		if rest != tc.rest || !cmp.Equal(ms, tc.months) {
			t.Errorf("questionPeriod(%q) = %q %v, want %q %v", tc.in, rest, ms, tc.rest, tc.months)
		}
	}
}

func months(y int) []string {
	var out []string
	for m := 1; m <= 12; m++ {
		out = append(out, time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC).Format("2006-01"))
	}
	return out
}

func TestDateTerms(t *testing.T) {
	fields := [numFields]string{fieldBody: "Cutover on 2026-12-05, pilot in January 2027; ticket 12026-01-01x and 2026-13-01 are no dates."}
	got := dateTerms([]string{"2026-11-01T10:00:00Z", "2026-11-20T10:00:00Z", ""}, &fields)
	want := []string{dateMark + "2026-11", dateMark + "2026-12", dateMark + "2027-01"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dateTerms (-want +got):\n%s", diff)
	}
}

// TestDatesSearchable: a memory is found by the month it was changed in
// and by the dates its text names, and a period narrows a query.
func TestDatesSearchable(t *testing.T) {
	d := newDir(t, map[string]string{
		"project_pg.md":      topicFile("project", "Postgres upgrade", "Main cluster", "Moves to Postgres 16 on 2026-12-05."),
		"project_billing.md": topicFile("project", "Billing owner", "Priya owns billing", "Escalate to Priya."),
		"project_billing_old.md": strings.ReplaceAll(topicFile("project", "Billing vendor", "Old billing vendor", "Stripe billing."),
			"2026-11-01T10:00:00Z", "2025-03-01T10:00:00Z"),
	})
	ix := Open(d)
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"what is planned for December 2026", []string{"project_pg.md"}},
		{"billing in March 2025", []string{"project_billing_old.md", "project_billing.md"}},
		{"billing this month", []string{"project_billing.md", "project_billing_old.md", "project_pg.md"}}, // the period alone: last
		{"what changed in March 2025", []string{"project_billing_old.md"}},
	} {
		if got := files(t, ix, Query{Text: tc.q}); !cmp.Equal(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.q, got, tc.want)
		}
	}
}

func FuzzTextDates(f *testing.F) {
	for _, s := range []string{"2026 May", "May 2026", "in\tJanuary  2027.", "2026-12-05", "x2026", "Sept 2026)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		textDates(s, func(ymd string) {
			if !isISODay(ymd) {
				t.Fatalf("textDates(%q) gave %q", s, ymd)
			}
		})
	})
}

func FuzzQuestionPeriod(f *testing.F) {
	for _, s := range []string{"in May 2026", "last week", "on 2026-12-05", "in January", "in 2025", "2026-02-30", "Sept 2026", "jan."} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		rest, ms := questionPeriod(s, now)
		if len(rest) != len(s) {
			t.Fatalf("questionPeriod(%q) changed the length: %q", s, rest)
		}
		if len(ms) > maxPeriod {
			t.Fatalf("questionPeriod(%q): %d months", s, len(ms))
		}
		for _, m := range ms {
			if !isISODay(strings.TrimPrefix(m, dateMark) + "-01") {
				t.Fatalf("questionPeriod(%q): bad month %q", s, m)
			}
		}
	})
}
