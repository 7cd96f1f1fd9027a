package dailylog

import (
	"testing"
	"time"
)

func TestParseDay(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"2026-11-01", "2026-11-01"},
		{" Today ", "2026-11-22"},
		{"yesterday", "2026-11-21"},
		{"0d", "2026-11-22"},
		{"30D", "2026-10-23"},
	} {
		got, err := ParseDay(tc.in, now)
		if err != nil || got != tc.want {
			t.Errorf("ParseDay(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"tomorrow", "-3d", "d", "2026-13-01", "2026-11-1", "next week"} {
		if got, err := ParseDay(in, now); err == nil {
			t.Errorf("ParseDay(%q) = %q, want an error", in, got)
		}
	}
}

// FuzzParseDay: a day that reads is a calendar date no later than now, and
// a date given as one comes back unchanged.
func FuzzParseDay(f *testing.F) {
	for _, s := range []string{"", "today", "yesterday", "7d", "2026-02-29", "2024-02-29", "99999999999999999999d"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ParseDay(in, now)
		if err != nil || got == "" {
			return
		}
		d, perr := time.Parse(DateLayout, got)
		if perr != nil {
			t.Fatalf("ParseDay(%q) = %q, not a date", in, got)
		}
		if _, isDate := time.Parse(DateLayout, in); isDate == nil && got != in {
			t.Fatalf("ParseDay(%q) = %q, want the date itself", in, got)
		}
		if isDate := in == got; !isDate && d.After(now) {
			t.Fatalf("ParseDay(%q) = %q, after now", in, got)
		}
	})
}
