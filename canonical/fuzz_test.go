package canonical

import (
	"strings"
	"testing"
	"unicode/utf8"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

func FuzzSlug(f *testing.F) {
	for _, s := range []string{"", "/home/u/my.app", `C:\Users\u`, "/home/é/日本/😀",
		"\xff\xfe", "/" + strings.Repeat("a", 199), "/" + strings.Repeat("é", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, root string) {
		got := Slug(root)
		if got != Slug(root) {
			t.Fatalf("Slug(%q) not deterministic", root)
		}
		if len(got) > MaxSlugLen+1+6 {
			t.Fatalf("Slug(%q) has %d chars, want <= %d", root, len(got), MaxSlugLen+1+6)
		}
		for _, c := range []byte(got) {
			if c != '-' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				t.Fatalf("Slug(%q) = %q has %q outside [A-Za-z0-9-]", root, got, c)
			}
		}
		if utf8.ValidString(root) && len(root) <= MaxSlugLen {
			units := 0
			for _, r := range root {
				units += utf8.RuneLen(r)/4 + 1 // astral runes are two UTF-16 units
			}
			if len(got) != units {
				t.Fatalf("Slug(%q) = %q has %d chars, want one per UTF-16 unit (%d)", root, got, len(got), units)
			}
		}
	})
}

func FuzzParseGitFile(f *testing.F) {
	for _, s := range []string{"gitdir: /a/b\n", "gitdir: ../.git/modules/x\r\n", "gitdir: \n",
		"gitdir:/a", "", "gitdir: a\nb", "gitdir: a\x00b\n", "gitdir: C:/x/.git/worktrees/y\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parseGitFile(data)
		if err != nil {
			return
		}
		if p == "" || strings.ContainsAny(p, "\x00\r\n") {
			t.Fatalf("parseGitFile(%q) = %q, want a non-empty single-line path", data, p)
		}
		again, err := parseGitFile([]byte(gitdirPrefix + p + "\n"))
		if err != nil || again != p {
			t.Fatalf("round trip of %q = %q, %v", p, again, err)
		}
	})
}

// quoteConfig writes v as a quoted git config value.
func quoteConfig(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
	return `"` + r.Replace(v) + `"`
}

// FuzzGitConfig feeds go-git's config decoder, as canonical calls it,
// arbitrary text (it must fail, not panic) and checks that a worktree
// path written the way git quotes it reads back unchanged.
func FuzzGitConfig(f *testing.F) {
	seeds := []struct{ cfg, v string }{
		{"[core]\n\tbare = false\n\tworktree = ../../../sub\n", "/a b"},
		{"[core] worktree = \"x;y\" # c\n", "x;y\"z\\"},
		{"[core]\nworktree = /x\\\n/y\n[remote \"o\"]\nurl = u\n", "\t \n"},
		{"[core\nworktree = \"unterminated\n", ""},
		{"; only a comment", "é"},
		{"[core]\nworktree = a\\", "\b"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.cfg), s.v)
	}
	f.Fuzz(func(t *testing.T, data []byte, v string) {
		_ = GitConfig{Raw: format.New()}.decode("fuzz", data)
		if !storable(v) {
			return
		}
		text := "[user]\n\tname = x\n[core]\n\tworktree = " + quoteConfig(v) + " ; note\n"
		cfg := GitConfig{Raw: format.New()}
		if err := cfg.decode("fuzz", []byte(text)); err != nil {
			t.Fatalf("decode(%q): %v", text, err)
		}
		if got := cfg.Value("core", "worktree"); got != v {
			t.Fatalf("worktree from %q = %q, want %q", text, got, v)
		}
	})
}

// storable reports whether git config, read by go-git's decoder, can
// hold v as a value: text without NUL (git's reader stops at one) and,
// since gcfg reads runes and drops every CR, valid UTF-8 without CR.
func storable(v string) bool {
	return utf8.ValidString(v) && !strings.ContainsAny(v, "\x00\r")
}
