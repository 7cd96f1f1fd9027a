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
		{"unclosed{brace", "unclosed{brace", false},
		{"src", "src/a/b.ts", true},
		{"src/{a,b}/*.ts", "src/b/x.ts", true},
		{".env", "deep/.env", true},
	}
	for _, tc := range tests {
		t.Run(tc.pattern+"~"+tc.name, func(t *testing.T) {
			if got := MatchGlob(tc.pattern, tc.name); got != tc.want {
				t.Errorf("MatchGlob(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
			}
		})
	}
}

func TestClaudePaths(t *testing.T) {
	got := claudePaths([]string{"src/{a,b}/*.ts, docs/**", "**"})
	want := []string{"src/a/*.ts", "src/b/*.ts", "docs", "**"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("claudePaths = %q, want %q", got, want)
	}
	if got := claudePaths([]string{"**", "x/**/**"}); got != nil && !(len(got) == 2) {
		t.Errorf("claudePaths(**) = %q", got)
	}
	if got := claudePaths([]string{"**"}); got != nil {
		t.Errorf("claudePaths(**) = %q, want nil", got)
	}
	if got := len(expandFirstBrace(strings.Repeat("{a,b}", 20), 0)); got > maxBraceExpansions {
		t.Errorf("got %d expansions, want at most %d", got, maxBraceExpansions)
	}
}

// FuzzClaudePaths checks claudePaths against its definition: each pattern
// it returns is one of the value's comma-separated, brace-expanded
// patterns with one trailing "/**" cut (as Claude cuts it), never empty,
// and with no top-level comma left when the value had no braces.
func FuzzClaudePaths(f *testing.F) {
	f.Add("src/{a,b}/*.ts, docs/**")
	f.Add("{,}")
	f.Add("a{b,c{d,e}}f")
	f.Add("0{/*}*/**")
	f.Fuzz(func(t *testing.T, v string) {
		expanded := map[string]bool{}
		for _, part := range splitTopLevel(v) {
			for _, e := range expandFirstBrace(part, 0) {
				expanded[e] = true
			}
		}
		for _, p := range claudePaths([]string{v}) {
			cut := expanded[p+"/**"]
			if p == "" || !cut && (!expanded[p] || strings.HasSuffix(p, "/**")) {
				t.Fatalf("claudePaths(%q) gave %q, which is no expansion with one /** cut", v, p)
			}
			if !strings.ContainsAny(v, "{}") && strings.Contains(p, ",") {
				t.Fatalf("claudePaths(%q) kept a comma in %q", v, p)
			}
		}
	})
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
		// "**" matches every file; an empty name (or "/", ".") names none.
		if clean := strings.TrimPrefix(path.Clean("/"+name), "/"); clean != "" && !MatchGlob("**", name) {
			t.Errorf("MatchGlob(**, %q) = false", name)
		}
		_ = got
	})
}
