package tokenize

import "testing"

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"pnpm", "pnpm", 0}, {"pnmp", "pnpm", 1}, {"grafna", "grafana", 1},
		{"kitten", "sitting", 3}, {"", "abc", 3}, {"ca", "abc", 3}, {"lsit", "list", 1},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
