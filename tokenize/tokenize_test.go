package tokenize

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// tokensOf renders the tokens of text as "term@pos", wholes marked "+".
func tokensOf(text string) []string {
	var out []string
	New().Each(text, 0, func(w Word) {
		s := w.Term
		if w.Whole {
			s = "+" + s
		}
		out = append(out, s+"@"+strconv.Itoa(w.Pos))
	})
	return out
}

func TestEach(t *testing.T) {
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

// TestStem checks that Stem, which similarity uses, gives the terms a
// Tokenizer gives.
func TestStem(t *testing.T) {
	for _, w := range []string{"configuring", "mocks", "mocked", "db", "k8s", "dying", "team's", "straße", "x"} {
		var want string
		New().Each(w, 0, func(tw Word) {
			if want == "" {
				want = tw.Term
			}
		})
		folded := string(appendFolded(nil, []rune(w)[0]))
		if utf8.RuneCountInString(w) > 1 {
			folded = fold(w, new([]byte))
		}
		if got := Stem(folded); got != want {
			t.Errorf("Stem(%q) = %q, want the tokenizer's %q", folded, got, want)
		}
	}
}

// FuzzEach checks the tokenizer against a plain oracle: for ASCII text
// whose letter-and-digit runs are short, the parts it gives, joined, are
// exactly the text's letters and digits, lowercased, in order. For any
// text, offsets lie inside it and the parts' positions go forward.
func FuzzEach(f *testing.F) {
	for _, s := range []string{"Hello, World!", "api-latency MAX_RETRIES getUserName", "Müller straße", "team's don’t", "日本語", "a..b--c__d", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var parts strings.Builder
		last := -1
		New().Each(s, 0, func(w Word) {
			if w.Start < 0 || w.End > len(s) || w.Start >= w.End || w.Folded == "" || w.Term == "" {
				t.Fatalf("tokens of %q: bad word %+v", s, w)
			}
			if w.Whole {
				return // a compound's whole stands at its first part
			}
			if w.Pos <= last {
				t.Fatalf("tokens of %q: position %d after %d", s, w.Pos, last)
			}
			last = w.Pos
			parts.WriteString(strings.ReplaceAll(w.Folded, "'", ""))
		})
		if !isASCII(s) || hasLongRun(s) {
			return
		}
		var want strings.Builder
		for _, c := range []byte(strings.ToLower(s)) {
			if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
				want.WriteByte(c)
			}
		}
		if parts.String() != want.String() {
			t.Fatalf("tokens of %q: parts %q, want %q", s, parts.String(), want.String())
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// hasLongRun reports a run of letters, digits and apostrophes longer
// than a word may be.
func hasLongRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '\'' {
			if n++; n > MaxWordBytes {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}
