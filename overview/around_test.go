package overview

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseSpan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"3d", 3 * day}, {" 2W ", 14 * day}, {"12h", 12 * time.Hour}, {"90m", 90 * time.Minute}, {"3650d", maxSpan},
	} {
		if got, err := ParseSpan(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseSpan(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "0d", "-1d", "3651d", "soon", "d", "w", "1y", "87601h"} {
		if got, err := ParseSpan(in); err == nil {
			t.Errorf("ParseSpan(%q) = %v, want an error", in, got)
		}
	}
}

// FuzzParseSpan: a span that reads is positive and at most ten years, and
// Nd is N days.
func FuzzParseSpan(f *testing.F) {
	for _, s := range []string{"3d", "2w", "90m", "1h30m", "0d", "9999999999999999999d", "-5m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ParseSpan(in)
		if err != nil {
			return
		}
		if d <= 0 || d > maxSpan {
			t.Fatalf("ParseSpan(%q) = %v, out of range", in, d)
		}
		s := strings.ToLower(strings.TrimSpace(in))
		if n, err := strconv.Atoi(strings.TrimSuffix(s, "d")); err == nil && strings.HasSuffix(s, "d") && d != time.Duration(n)*day {
			t.Fatalf("ParseSpan(%q) = %v, want %d days", in, d, n)
		}
	})
}
