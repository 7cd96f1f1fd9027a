package instructions

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFrontmatter(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Frontmatter
		body    string
		ok, err bool
	}{
		{name: "none", in: "# Title\n", body: "# Title\n"},
		{name: "paths list", in: "---\npaths:\n  - a/**\n  - \"!b\"\n---\nbody\n",
			want: Frontmatter{Paths: PatternList{"a/**", "!b"}}, body: "body\n", ok: true},
		{name: "globs string", in: "---\nglobs: \"*.go, *.md ,\"\nalwaysApply: true\n---\nx",
			want: Frontmatter{Globs: PatternList{"*.go", "*.md"}, AlwaysApply: true}, body: "x", ok: true},
		{name: "applyTo and skill keys", in: "---\napplyTo: docs/**\nname: n\ndescription: d\n...\n",
			want: Frontmatter{ApplyTo: PatternList{"docs/**"}, Name: "n", Description: "d"}, ok: true},
		{name: "crlf", in: "---\r\nglobs: a\r\n---\r\nbody", want: Frontmatter{Globs: PatternList{"a"}}, body: "body", ok: true},
		{name: "unclosed", in: "---\npaths: a\n", body: "---\npaths: a\n"},
		{name: "empty block", in: "---\n---\nbody", body: "body", ok: true},
		{name: "bad yaml", in: "---\npaths: [x\n---\nbody", body: "body", ok: true, err: true},
		{name: "bad pattern type", in: "---\npaths: {a: b}\n---\n", ok: true, err: true},
		{name: "not at start", in: "x\n---\npaths: a\n---\n", body: "x\n---\npaths: a\n---\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fm, body, ok, err := ParseFrontmatter([]byte(tc.in))
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if ok != tc.ok {
				t.Errorf("ok = %v, want %v", ok, tc.ok)
			}
			if string(body) != tc.body {
				t.Errorf("body = %q, want %q", body, tc.body)
			}
			if diff := cmp.Diff(tc.want, fm); diff != "" && !tc.err {
				t.Errorf("frontmatter (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApplies(t *testing.T) {
	tests := []struct {
		name  string
		fm    Frontmatter
		files []string
		want  bool
	}{
		{"no patterns", Frontmatter{}, nil, true},
		{"no file given", Frontmatter{Paths: PatternList{"src/**"}}, nil, false},
		{"match", Frontmatter{Paths: PatternList{"src/**"}}, []string{"src/a.go"}, true},
		{"no match", Frontmatter{Globs: PatternList{"*.sql"}}, []string{"src/a.go"}, false},
		{"excluded", Frontmatter{Globs: PatternList{"**/*.go", "!vendor/**"}}, []string{"vendor/x/a.go"}, false},
		{"one of two kept", Frontmatter{Globs: PatternList{"**/*.go", "!vendor/**"}}, []string{"vendor/a.go", "cmd/b.go"}, true},
		{"only exclusions, none given", Frontmatter{Globs: PatternList{"!gen/**"}}, nil, true},
		{"only exclusions, all excluded", Frontmatter{Globs: PatternList{"!gen/**"}}, []string{"gen/a.go"}, false},
		{"only exclusions, one kept", Frontmatter{Globs: PatternList{"!gen/**"}}, []string{"gen/a.go", "b.go"}, true},
		{"alwaysApply", Frontmatter{ApplyTo: PatternList{"*.sql"}, AlwaysApply: true}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.fm.Applies(tc.files); got != tc.want {
				t.Errorf("Applies(%v) = %v, want %v", tc.files, got, tc.want)
			}
		})
	}
}

func FuzzFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\npaths:\n  - a/**\n---\nbody\n", "---\nglobs: a, b\nalwaysApply: true\n---\n",
		"---\r\napplyTo: x\r\n...\r\n", "---\n---\n", "---\npaths: [\n---\n", "---", "no frontmatter",
		"---\nname: s\ndescription: d\n---\n\n# Skill\n", "---\npaths: {a: 1}\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, body, ok, _ := ParseFrontmatter(data)
		if !ok && !bytes.Equal(body, data) {
			t.Fatalf("no frontmatter but body %q differs from input", body)
		}
		if !bytes.HasSuffix(data, body) {
			t.Fatalf("body %q is not a suffix of the input", body)
		}
	})
}
