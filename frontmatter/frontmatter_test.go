package frontmatter

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name, in, yml, body string
		err                 error
	}{
		{"plain", "---\na: 1\n---\nbody\n", "a: 1\n", "body\n", nil},
		{"bom and crlf", "\ufeff---\r\na: 1\r\n---\r\nbody", "a: 1\r\n", "body", nil},
		{"trailing blanks on markers", "--- \t\na: 1\n---  \nx", "a: 1\n", "x", nil},
		{"dots close", "---\na: 1\n...\nx", "a: 1\n", "x", nil},
		{"empty block", "---\n---\nx", "", "x", nil},
		{"closing at end without newline", "---\na: 1\n---", "a: 1\n", "", nil},
		{"no opening", "# Title\n---\n", "", "# Title\n---\n", ErrNone},
		{"opening only line", "---", "", "---", ErrNone},
		{"unclosed", "---\na: 1\n", "", "---\na: 1\n", ErrUnclosed},
		{"dashes inside a value do not close", "---\na: x---y\n---\nb", "a: x---y\n", "b", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			yml, body, err := Split([]byte(tc.in))
			if !errors.Is(err, tc.err) || string(yml) != tc.yml || string(body) != tc.body {
				t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, %v", tc.in, yml, body, err, tc.yml, tc.body, tc.err)
			}
		})
	}
}

// TestUnclosed pins what an unclosed block is: not frontmatter to Split
// (as to Claude Code, which then shows the whole text, "---" included),
// but its lines count for a reader that must fail closed.
func TestUnclosed(t *testing.T) {
	in := "\ufeff---\nname: Secret\nprivate: true\n\nBody.\n"
	if yml, body, err := Split([]byte(in)); !errors.Is(err, ErrUnclosed) || yml != nil || string(body) != in {
		t.Fatalf("Split = %q, %q, %v", yml, body, err)
	}
	rest, ok := AfterOpening([]byte(in))
	if !ok || string(rest) != "name: Secret\nprivate: true\n\nBody.\n" {
		t.Fatalf("AfterOpening = %q, %v", rest, ok)
	}
	for _, none := range []string{"", "---", "# x\n---\n", "----\n", " ---\n"} {
		if rest, ok := AfterOpening([]byte(none)); ok || rest != nil || HasOpening([]byte(none)) {
			t.Errorf("AfterOpening(%q) = %q, %v", none, rest, ok)
		}
	}
}

func TestPlain(t *testing.T) {
	pairs, ok := Plain([]byte("name: testing-policy\ndescription: Real database\nmetadata:\n  type: feedback\n  owner: sam\nx: y\n"))
	if !ok || len(pairs) != 4 || pairs[2].Key != "metadata" || len(pairs[2].Nested) != 2 || pairs[2].Nested[0].Value != "feedback" {
		t.Fatalf("Plain = %+v, %v", pairs, ok)
	}
	for _, bad := range []string{"metadata:\nname: a\n", "metadata:\n  type: 'a'\n", "metadata:\n    type: a\n", "a: 1\na: 2\n", "metadata:\n  t: 1\n  t: 2\n"} {
		if _, ok := Plain([]byte(bad)); ok {
			t.Errorf("Plain(%q) accepted", bad)
		}
	}
}

// oracle is the rule written as one regular expression, independent of
// Split's line scanner.
var oracle = regexp.MustCompile(`\A(?:\x{feff})?---[ \t\r]*\n((?:[^\n]*\n)*?)(?:---|\.\.\.)[ \t\r]*(?:\n|\z)`)

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"---\na: 1\n---\nbody", "\ufeff--- \r\n---\r\n", "---\n...", "---\nx\n--- y\n---\n", "---\n\n---", "a\n---\n---\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		yml, body, err := Split([]byte(s))
		rest, open := AfterOpening([]byte(s))
		if open != (err != ErrNone) || open != HasOpening([]byte(s)) || !strings.HasSuffix(s, string(rest)) {
			t.Fatalf("Split(%q) err %v, AfterOpening %q, %v", s, err, rest, open)
		}
		if err == nil && !bytes.HasPrefix(rest, yml) {
			t.Fatalf("Split(%q): yml %q is not the start of %q", s, yml, rest)
		}
		m := oracle.FindStringSubmatchIndex(s)
		if (err == nil) != (m != nil) {
			t.Fatalf("Split(%q) err %v, oracle match %v", s, err, m)
		}
		if err != nil {
			if string(body) != s {
				t.Fatalf("Split(%q) changed the body on error", s)
			}
			return
		}
		wantYML := s[m[2]:m[3]]
		if string(yml) != wantYML || string(body) != s[m[1]:] {
			t.Fatalf("Split(%q) = %q, %q; oracle %q, %q", s, yml, body, wantYML, s[m[1]:])
		}
	})
}

// FuzzPlain checks the fast path against yaml: whatever Plain accepts,
// yaml decodes to the same keys and values.
func FuzzPlain(f *testing.F) {
	for _, s := range []string{"name: a\ndescription: b c\n", "metadata:\n  type: user\n", "a: b: c\n", "a: 'x'\n", "k: 10:30\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pairs, ok := Plain([]byte(s))
		if !ok {
			return
		}
		var m map[string]any
		if err := yaml.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("Plain accepted %q, yaml rejects it: %v", s, err)
		}
		for _, p := range pairs {
			v, ok := m[p.Key]
			if !ok {
				t.Fatalf("Plain(%q): key %q not in yaml's %v", s, p.Key, m)
			}
			if p.Nested != nil {
				nm, ok := v.(map[string]any)
				if !ok || len(nm) != len(p.Nested) {
					t.Fatalf("Plain(%q): %q nested %v, yaml %v", s, p.Key, p.Nested, v)
				}
				continue
			}
			if str, ok := v.(string); ok && str != p.Value {
				t.Fatalf("Plain(%q): %q = %q, yaml %q", s, p.Key, p.Value, str)
			}
		}
	})
}

// TestSplitClaude pins Claude Code's expression on the files of
// testdata/fidelity/claude/frontmatter, whose golden the real client
// recorded.
func TestSplitClaude(t *testing.T) {
	tests := []struct {
		name, in, yml, body string
		ok                  bool
	}{
		{"closed", "---\npaths: a/**\n---\n\nBody.\n", "paths: a/**\n", "Body.\n", true},
		{"unclosed", "---\npaths: a/**\n\nBody.\n", "", "---\npaths: a/**\n\nBody.\n", false},
		{"dashes inside a value end it", "---\ndescription: use --- here\n---\nB", "description: use ", "here\n---\nB", true},
		{"dashes inside a later line end it", "---\np: x\n\nText a---b\n", "p: x\n\nText a", "b\n", true},
		{"dots do not close", "---\np: x\n...\nB\n", "", "---\np: x\n...\nB\n", false},
		{"byte order mark", "\ufeff---\np: x\n---\nB", "", "\ufeff---\np: x\n---\nB", false},
		{"blank lines after the opening", "--- \n\n\np: x\n---", "p: x\n", "", true},
		{"no space after the closing", "---\n---body", "", "body", true},
		{"opening must be dashes only", "----\np: x\n---\n", "", "----\np: x\n---\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			yml, body, ok := SplitClaude([]byte(tc.in))
			if ok != tc.ok || string(yml) != tc.yml || string(body) != tc.body {
				t.Errorf("SplitClaude(%q) = %q, %q, %v; want %q, %q, %v", tc.in, yml, body, ok, tc.yml, tc.body, tc.ok)
			}
		})
	}
}

// FuzzSplitClaude checks SplitClaude against a plain scan of the same
// rule: the first "---" after the opening line ends the YAML.
func FuzzSplitClaude(f *testing.F) {
	for _, s := range []string{"---\na: 1\n---\nb", "---\na---b", "--- \t\n---", "---\n...\n", "\ufeff---\n---\n", "---\u00a0\n---\u2028\nx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		yml, body, ok := SplitClaude([]byte(s))
		if !ok {
			if string(body) != s || yml != nil {
				t.Fatalf("SplitClaude(%q) changed the body without frontmatter", s)
			}
			if rest, open := claudeOpening(s); open && strings.Contains(rest, "---") {
				t.Fatalf("SplitClaude(%q): no frontmatter, but %q has a closing ---", s, rest)
			}
			return
		}
		rest, open := claudeOpening(s)
		i := strings.Index(rest, "---")
		if !open || i < 0 || string(yml) != rest[:i] || !strings.HasSuffix(s, string(body)) {
			t.Fatalf("SplitClaude(%q) = %q, %q; scan: open %v, rest %q", s, yml, body, open, rest)
		}
		if want := strings.TrimLeftFunc(rest[i+3:], isJSSpaceForTest); string(body) != want {
			t.Fatalf("SplitClaude(%q): body %q, want %q (white space after the closing --- goes)", s, body, want)
		}
	})
}

// claudeOpening returns the text after an opening "---" line as
// /^---\s*\n/ reads it: the last newline of the white space after the
// dashes ends it (the expression backtracks to it).
func claudeOpening(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "---")
	if !ok {
		return "", false
	}
	n := len(rest) - len(strings.TrimLeftFunc(rest, isJSSpaceForTest))
	i := strings.LastIndexByte(rest[:n], '\n')
	if i < 0 {
		return "", false
	}
	return rest[i+1:], true
}

func isJSSpaceForTest(r rune) bool {
	return strings.ContainsRune("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff", r) || r >= 0x2000 && r <= 0x200a
}

// TestStripClaude pins what Claude Code 2.1.332 skips of a memory index
// (index/testdata/claude/bom and frontmatter, recorded from the client):
// the byte order mark goes with a block, and stays without one.
func TestStripClaude(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no block", "- [A](a.md)\n", "- [A](a.md)\n"},
		{"block", "---\nx: y\n---\n\n- [A](a.md)\n", "- [A](a.md)\n"},
		{"byte order mark and block", "\ufeff---\nx: y\n---\nB", "B"},
		{"byte order mark alone", "\ufeffB", "\ufeffB"},
		{"byte order mark, unclosed", "\ufeff---\nx: y\n", "\ufeff---\nx: y\n"},
		{"dashes mid-line end it", "---\nx: a---b\n", "b\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := StripClaude(tc.in); got != tc.want {
				t.Errorf("StripClaude(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzStripClaude checks StripClaude against SplitClaude: without a byte
// order mark it returns SplitClaude's body; with one, the body of the rest
// when that has a block, else the whole text.
func FuzzStripClaude(f *testing.F) {
	for _, s := range []string{"---\na: 1\n---\nb", "\ufeff---\na---b", "\ufeff\ufeff---\n---\n", "---\n", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := StripClaude(s)
		if !strings.HasSuffix(s, got) {
			t.Fatalf("StripClaude(%q) = %q is not a suffix", s, got)
		}
		rest := strings.TrimPrefix(s, "\ufeff")
		want := s
		if _, body, ok := SplitClaude([]byte(rest)); ok {
			want = string(body)
		}
		if got != want {
			t.Fatalf("StripClaude(%q) = %q, want %q", s, got, want)
		}
	})
}
