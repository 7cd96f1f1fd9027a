package instructions

import (
	"path"
	"strings"
	"testing"
)

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"src/api/**/*.go", "src/api/v2/handler.go", true},
		{"src/api/**/*.go", "src/api/handler.go", true},
		{"src/api/**/*.go", "src/web/handler.go", false},
		{"**/*_test.go", "a/b/c_test.go", true},
		{"**/*_test.go", "c_test.go", true},
		{"*.go", "deep/down/main.go", true},
		{"/*.go", "deep/main.go", false},
		{"/*.go", "main.go", true},
		{"./docs/*.md", "docs/a.md", true},
		{"docs/**", "docs/a/b/c.md", true},
		{"docs/**", "other/a.md", false},
		{"src/**/*.{ts,tsx}", "src/ui/App.tsx", true},
		{"src/**/*.{ts,tsx}", "src/ui/App.js", false},
		{"{a,b{c,d}}/x", "bd/x", true},
		{"a/?/c", "a/b/c", true},
		{"a/[bc]/d", "a/c/d", true},
		{"a/[", "a/[", false},
		{"", "a", false},
		{"a/**/**/b", "a/b", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"unclosed{brace", "unclosed{brace", true},
	}
	for _, tc := range tests {
		t.Run(tc.pattern+"~"+tc.name, func(t *testing.T) {
			if got := MatchGlob(tc.pattern, tc.name); got != tc.want {
				t.Errorf("MatchGlob(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
			}
		})
	}
}

func TestExpandBracesLimit(t *testing.T) {
	p := strings.Repeat("{a,b}", 20)
	if got := len(expandBraces(p, maxBraceExpansions)); got != maxBraceExpansions {
		t.Errorf("got %d expansions, want %d", got, maxBraceExpansions)
	}
}

func FuzzGlob(f *testing.F) {
	seeds := [][2]string{
		{"src/**/*.go", "src/a/b.go"}, {"*.md", "docs/x.md"}, {"{a,b}/**", "a/c"},
		{"**", "x"}, {"a/[b-d]/?", "a/c/e"}, {"{{{", "}}}"}, {"/abs/*", "abs/x"},
		{"**/**/**/**/**/x", "a/b/c/d/e/f/g/h/x"}, {"!neg/*", "neg/a"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got := MatchGlob(pattern, name)
		// A literal, clean, relative path always matches itself.
		literal := !strings.ContainsAny(name, "*?[]{}\\!") && path.Clean(name) == name &&
			!strings.HasPrefix(name, "/") && !strings.HasPrefix(name, ".") && strings.TrimSpace(name) == name
		if literal && !MatchGlob(name, name) {
			t.Errorf("MatchGlob(%q, itself) = false", name)
		}
		// "**" matches everything.
		if !MatchGlob("**", name) {
			t.Errorf("MatchGlob(**, %q) = false", name)
		}
		_ = got
	})
}
