package search

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// words renders the tokens of text as "term@pos", wholes marked "+".
func tokensOf(text string) []string {
	var out []string
	newTokenizer().each(text, 0, func(w word) {
		s := w.term
		if w.whole {
			s = "+" + s
		}
		out = append(out, s+"@"+itoa(w.pos))
	})
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"Hello, World!", "hello@0 world@1"},
		{"Müller ÆRØ straße Ångström", "muller@0 aero@1 strass@2 angstrom@3"},
		{"configuring configuration configured", "configur@0 configur@1 configur@2"},
		{"api-latency budget", "api@0 latenc@1 +apilatency@0 budget@2"},
		{"MAX_RETRIES=5", "max@0 retri@1 +maxretries@0 5@2"},
		{"snake_case getUserName HTTPServer", "snake@0 case@1 +snakecase@0 get@2 user@3 name@4 +getusername@2 http@5 server@6 +httpserver@5"},
		{"team's don’t", "team@0 don't@1"},
		{"end. Next", "end@0 next@1"},
		{"docs/deploy.md", "doc@0 deploy@1 md@2 +docsdeploymd@0"},
		{"ipv6 k8s v1.2", "ipv6@0 k8s@1 v1@2 2@3 +v12@2"},
		{"日本語 text", "日@0 本@1 語@2 text@3"},
		{"'quoted' -dash- __init__", "quot@0 dash@1 init@2"},
		{"e\u0301te", "ete@0"},
		{"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got := strings.Join(tokensOf(tc.in), " ")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tokens of %q (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}
