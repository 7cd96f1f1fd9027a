package instructions

import (
	"bytes"
	"slices"
	"testing"
)

// TestClaudeFrontmatter pins Claude Code's reading of rule frontmatter:
// its expression for the block, its repair for YAML that does not parse.
func TestClaudeFrontmatter(t *testing.T) {
	tests := []struct {
		name, in string
		paths    []string
		body     string
		had      bool
	}{
		{"plain", "---\npaths: src/**\n---\n\nBody.\n", []string{"src/**"}, "Body.\n", true},
		{"unquoted star, repaired", "---\npaths: **/*.ts\n---\nB", []string{"**/*.ts"}, "B", true},
		{"tab-indented list, repaired", "---\npaths:\n\t- a/**\n\t- b/**\n---\nB", []string{"a/**", "b/**"}, "B", true},
		{"flow list kept", "---\npaths: [a/**, \"b/*.go\"]\n---\nB", []string{"a/**", "b/*.go"}, "B", true},
		{"broken list becomes a pattern", "---\npaths: [unclosed\n---\nB", []string{"[unclosed"}, "B", true},
		{"unclosed: no frontmatter", "---\npaths: a/**\n\nB\n", nil, "---\npaths: a/**\n\nB\n", false},
		{"closed by dots: no frontmatter", "---\npaths: a/**\n...\nB", nil, "---\npaths: a/**\n...\nB", false},
		{"dashes in a value end the block", "---\ndescription: a --- b\npaths: x/**\n---\nB", nil, "b\npaths: x/**\n---\nB", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fm, body, had, err := claudeFrontmatter([]byte(tc.in))
			if err != nil || had != tc.had || !slices.Equal(fm.Paths, tc.paths) || string(body) != tc.body {
				t.Errorf("claudeFrontmatter(%q) = paths %q, body %q, had %v, err %v; want %q, %q, %v",
					tc.in, fm.Paths, body, had, err, tc.paths, tc.body, tc.had)
			}
		})
	}
}

// FuzzClaudeFrontmatter: never panics, the body is the end of the input,
// and without a block the whole input; a repair keeps the line count.
func FuzzClaudeFrontmatter(f *testing.F) {
	for _, s := range []string{"---\npaths: **/*.ts\n---\nB", "---\na: {\n---\n", "---\n\tk: v\n---", "---\nx: \"a\\\"b\" *\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, body, had, _ := claudeFrontmatter(data)
		if !bytes.HasSuffix(data, body) || !had && !bytes.Equal(body, data) {
			t.Fatalf("claudeFrontmatter(%q): body %q, had %v", data, body, had)
		}
		if r := claudeRepair(data); bytes.Count(r, []byte("\n")) != bytes.Count(data, []byte("\n")) {
			t.Fatalf("claudeRepair(%q) = %q changed the lines", data, r)
		}
	})
}
