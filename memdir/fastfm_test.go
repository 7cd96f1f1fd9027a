package memdir

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fastAndSlow decodes frontmatter both ways: the fast path (ok false when
// it declined) and yaml.
func fastAndSlow(yml []byte) (fast *Topic, ok bool, slow *Topic, slowErr error) {
	fast, slow = &Topic{File: "f.md"}, &Topic{File: "f.md"}
	ok = fast.fastDecode(yml)
	slowErr = slow.decodeYAML(yml)
	return fast, ok, slow, slowErr
}

func TestFastDecode(t *testing.T) {
	tests := []struct {
		name string
		yml  string
		fast bool
	}{
		{"memdir's own", "name: Testing policy\ndescription: Integration tests hit a real database, never mocks\ntype: feedback\ncreated: 2026-11-22T10:04:05Z\nmodified: 2026-11-22T10:04:05Z\n", true},
		{"claude code's", "name: user role\ndescription: Senior Go engineer, new to React: \"the frontend\"\ntype: User\n", false},
		{"unknown keys kept", "name: a\ndescription: b\ntype: project\nowner: sam\nexpires: 2026-12-01\nprivate: true\n", true},
		{"colons and hashes inside", "name: C# tips\ndescription: see https://example.com/a#b at 10:30\ntype: reference\n", true},
		{"quoted", "name: 'a'\ndescription: b\ntype: user\n", false},
		{"comment", "# note\nname: a\ndescription: b\ntype: user\n", false},
		{"trailing comment", "name: a # note\ndescription: b\ntype: user\n", false},
		{"continuation", "name: a\ndescription: b\n  c\ntype: user\n", false},
		{"block scalar", "name: a\ndescription: |\n  b\ntype: user\n", false},
		{"tags", "name: a\ndescription: b\ntype: user\ntags: [x, y]\n", false},
		{"duplicate key", "name: a\nname: b\ndescription: b\ntype: user\n", false},
		{"bad type", "name: a\ndescription: b\ntype: diary\n", false},
		{"bad time", "name: a\ndescription: b\ntype: user\ncreated: yesterday\n", false},
		{"missing name", "description: b\ntype: user\n", false},
		{"private yes", "name: a\ndescription: b\ntype: user\nprivate: yes\n", false},
		{"crlf", "name: a\r\ndescription: b\r\ntype: user\r\n", false},
		{"tab", "name: a\tb\ndescription: b\ntype: user\n", false},
		{"line separator", "name: a\u2028b\ndescription: b\ntype: user\n", false},
		{"unicode", "name: Über café\ndescription: naïve — résumé\ntype: user\n", true},
		{"double spaces", "name: a  b\ndescription: b   c\ntype: user\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fast, ok, slow, slowErr := fastAndSlow([]byte(tc.yml))
			if ok != tc.fast {
				t.Fatalf("fast path ok = %v, want %v", ok, tc.fast)
			}
			if !ok {
				return
			}
			if slowErr != nil {
				t.Fatalf("fast path accepted what yaml rejects: %v", slowErr)
			}
			if diff := cmp.Diff(slow, fast, cmpopts.IgnoreUnexported(Topic{})); diff != "" {
				t.Errorf("fast and yaml decoding differ (-yaml +fast):\n%s", diff)
			}
		})
	}
}

// TestFastDecodeRewriteKeepsText checks that a topic read the fast way
// rewrites exactly as one read through yaml: unknown keys in place.
func TestFastDecodeRewriteKeepsText(t *testing.T) {
	data := []byte("---\nname: a\nowner: sam\ndescription: b\ntype: project\nsource: https://x.example/y\n---\n\nBody.\n")
	fast, err := ParseTopic("project_a.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if fast.raw == "" {
		t.Fatal("the fast path was not taken")
	}
	slow := &Topic{File: "project_a.md", Body: fast.Body}
	if err := slow.decodeYAML([]byte("name: a\nowner: sam\ndescription: b\ntype: project\nsource: https://x.example/y\n")); err != nil {
		t.Fatal(err)
	}
	for _, tp := range []*Topic{fast, slow} {
		tp.Description = "changed"
	}
	got, err := fast.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want, err := slow.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("rewrite differs (-yaml +fast):\n%s", diff)
	}
	if !bytes.Contains(got, []byte("owner: sam\ndescription: changed\n")) {
		t.Errorf("unknown key moved or lost:\n%s", got)
	}
}

// FuzzFastDecode checks that whatever the fast path accepts, yaml accepts
// too, with the same fields and the same rewrite.
func FuzzFastDecode(f *testing.F) {
	f.Add([]byte("name: a\ndescription: b\ntype: user\n"))
	f.Add([]byte("name: C# tips\ndescription: see https://x.example/#a, 10:30\ntype: reference\nprivate: true\nexpires: 2026-12-01\n"))
	f.Add([]byte("name: a\ndescription: b\ntype: project\ncreated: 2026-11-22T10:04:05Z\nowner: ~\n"))
	f.Fuzz(func(t *testing.T, yml []byte) {
		fast, ok, slow, slowErr := fastAndSlow(yml)
		if !ok {
			return
		}
		if slowErr != nil {
			t.Fatalf("fast path accepted what yaml rejects (%v): %q", slowErr, yml)
		}
		if diff := cmp.Diff(slow, fast, cmpopts.IgnoreUnexported(Topic{})); diff != "" {
			t.Fatalf("fast and yaml decoding differ for %q (-yaml +fast):\n%s", yml, diff)
		}
		got, gotErr := fast.Marshal()
		want, wantErr := slow.Marshal()
		if (gotErr == nil) != (wantErr == nil) || string(got) != string(want) {
			t.Fatalf("rewrite differs for %q:\nyaml %q %v\nfast %q %v", yml, want, wantErr, got, gotErr)
		}
	})
}
