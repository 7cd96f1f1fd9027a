package instructions

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindImports(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"plain", "See @docs/a.md for more.", []string{"docs/a.md"}},
		{"start and punctuation", "@a.md, then (@b/c.md).", []string{"a.md"}},
		{"home and absolute", "@~/x.md and @/etc/y.md", []string{"~/x.md", "/etc/y.md"}},
		{"relative dots", "@./a.md @../b.md", []string{"./a.md", "../b.md"}},
		{"underscores survive emphasis splitting", "use @docs/my_file_name.md now", []string{"docs/my_file_name.md"}},
		{"escaped space", `@docs/my\ file.md`, []string{"docs/my file.md"}},
		{"code span", "not `@a.md` but @b.md", []string{"b.md"}},
		{"fenced block", "```\n@a.md\n```\n\n@b.md\n", []string{"b.md"}},
		{"indented code", "para\n\n    @a.md\n", nil},
		{"html comment", "<!-- @a.md -->\n", nil},
		{"email", "mail me@example.com", nil},
		{"mention without path", "thanks @alice and @README", nil},
		{"double at", "@@a.md @a@b.md", nil},
		{"emphasis", "*@a.md* and **@b.md**", []string{"a.md", "b.md"}},
		{"list and heading", "# About @h.md\n\n- @l.md\n", []string{"h.md", "l.md"}},
		{"only dots", "@. @.. @./", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, im := range FindImports([]byte(tc.in)) {
				got = append(got, im.Path)
				if tc.in[im.Offset] != '@' {
					t.Errorf("offset %d of %q is not an @", im.Offset, im.Path)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("FindImports(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestStripComments(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"block between paragraphs", "a\n\n<!-- note -->\n\nb\n", "a\n\nb\n"},
		{"multi-line block", "a\n\n<!--\nx\ny\n-->\nb\n", "a\n\nb\n"},
		{"text after close kept", "<!-- c --> tail\nb\n", " tail\nb\n"},
		{"inline comment kept", "a <!-- keep --> b\n", "a <!-- keep --> b\n"},
		{"in code kept", "```\n<!-- keep -->\n```\n", "```\n<!-- keep -->\n```\n"},
		{"none", "plain\n", "plain\n"},
		{"unclosed to end", "a\n\n<!-- open\nrest\n", "a\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(StripComments([]byte(tc.in))); got != tc.want {
				t.Errorf("StripComments(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzImports(f *testing.F) {
	for _, s := range []string{
		"See @docs/a.md.", "`@x.md` @y.md", "```\n@f.md\n```\n@g.md", "<!-- @c.md -->\n@d.md",
		`@my\ file.md`, "*@e_f_g.md*", "- @~/home.md\n> @/abs.md", "[@link.md](x.md) a@b.md",
		"@", "@\\", "\\@a.md", "# @h.md\n===\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		prev := -1
		for _, im := range FindImports(src) {
			if im.Offset <= prev || im.Offset >= len(src) || src[im.Offset] != '@' {
				t.Fatalf("bad offset %d (previous %d) for %q", im.Offset, prev, im.Path)
			}
			prev = im.Offset
			if im.Path == "" || strings.ContainsAny(im.Path, "@\n\t") {
				t.Fatalf("bad path %q", im.Path)
			}
		}
		out := StripComments(src)
		if len(out) > len(src) {
			t.Fatalf("StripComments grew %d to %d bytes", len(src), len(out))
		}
		if !bytes.Contains(src, []byte("<!--")) && !bytes.Equal(out, src) {
			t.Fatalf("StripComments changed text without comments")
		}
	})
}
