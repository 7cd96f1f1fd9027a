package instructions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/typesx"
)

func TestAdd(t *testing.T) {
	tests := []struct {
		name, in, section, text, want string
		missing                       bool
	}{
		{name: "new file", missing: true, section: "Notes", text: "use make",
			want: "## Notes\n\n- use make\n"},
		{name: "join list", section: "Notes", text: "c",
			in:   "# T\n\n## Notes\n\n- a\n- b\n\n## Other\n\ntext\n",
			want: "# T\n\n## Notes\n\n- a\n- b\n- c\n\n## Other\n\ntext\n"},
		{name: "after paragraph", section: "notes", text: "c",
			in:   "## Notes\nSome words.\n## Other\n",
			want: "## Notes\nSome words.\n\n- c\n## Other\n"},
		{name: "empty section", section: "Notes", text: "c",
			in:   "## Notes\n\n## Other\n",
			want: "## Notes\n\n- c\n\n## Other\n"},
		{name: "before subheading", section: "Notes", text: "c",
			in:   "## Notes\n\n- a\n\n### Detail\n\n- d\n",
			want: "## Notes\n\n- a\n- c\n\n### Detail\n\n- d\n"},
		{name: "last section no newline", section: "Notes", text: "c",
			in:   "## Notes\n\n- a",
			want: "## Notes\n\n- a\n- c\n"},
		{name: "missing heading appended", section: "Build", text: "run make",
			in:   "# T\n\nintro\n",
			want: "# T\n\nintro\n\n## Build\n\n- run make\n"},
		{name: "missing heading, no final newline", section: "Build", text: "x",
			in:   "# T",
			want: "# T\n\n## Build\n\n- x\n"},
		{name: "heading in code is not a heading", section: "Notes", text: "x",
			in:   "```\n## Notes\n```\n",
			want: "```\n## Notes\n```\n\n## Notes\n\n- x\n"},
		{name: "setext heading", section: "Notes", text: "x",
			in:   "Notes\n=====\n\npara\n",
			want: "Notes\n=====\n\npara\n\n- x\n"},
		{name: "heading with code span", section: "Use make", text: "x",
			in:   "## Use `make`\n\n- a\n",
			want: "## Use `make`\n\n- a\n- x\n"},
		{name: "frontmatter is not a heading", section: "title: x", text: "y",
			in:   "---\ntitle: x\n---\nbody\n",
			want: "---\ntitle: x\n---\nbody\n\n## title: x\n\n- y\n"},
		{name: "no section appends at end", text: "x",
			in:   "- a\n",
			want: "- a\n- x\n"},
		{name: "multi-line text", section: "N", text: "one\ntwo\r\n",
			in:   "## N\n",
			want: "## N\n\n- one\n  two\n"},
		{name: "crlf file keeps its bytes", section: "N", text: "x",
			in:   "## N\r\n\r\n- a\r\n",
			want: "## N\r\n\r\n- a\r\n- x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sub", "AGENTS.md")
			if !tc.missing {
				writeFile(t, path, tc.in)
			}
			if err := Add(path, tc.section, tc.text); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}

func TestAddEmptyText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	if err := Add(path, "N", "  \n"); !errors.Is(err, ErrEmptyText) {
		t.Fatalf("got %v, want ErrEmptyText", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("file was created: %v", err)
	}
}

func TestFileFor(t *testing.T) {
	dir := t.TempDir()
	home, root := filepath.Join(dir, "home"), filepath.Join(dir, "root")
	writeFile(t, filepath.Join(root, "AGENTS.override.md"), "x\n")
	writeFile(t, filepath.Join(home, ".claude", "CLAUDE.md"), "x\n")
	builtin := Builtin()
	tests := []struct {
		profile string
		scope   typesx.Scope
		want    string
		err     error
	}{
		{"codex", typesx.ScopeProject, filepath.Join(root, "AGENTS.override.md"), nil},
		{"codex", typesx.ScopeUser, filepath.Join(home, ".codex", "AGENTS.md"), nil},
		{"codex", typesx.ScopeLocal, "", ErrNoScopeFile},
		{"claude", typesx.ScopeUser, filepath.Join(home, ".claude", "CLAUDE.md"), nil},
		{"claude", typesx.ScopeLocal, filepath.Join(root, "CLAUDE.local.md"), nil},
		{"generic", typesx.ScopeProject, filepath.Join(root, "AGENTS.md"), nil},
		{"generic", typesx.ScopeLocal, filepath.Join(root, "AGENTS.local.md"), nil},
		{"generic", typesx.ScopeManaged, "", ErrNoScopeFile},
		{"deepagents", typesx.ScopeUser, filepath.Join(home, ".deepagents", "agent", "agent.md"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.profile+"/"+string(tc.scope), func(t *testing.T) {
			got, err := FileFor(builtin[tc.profile], tc.scope, Options{Root: root, Cwd: root, UserHome: home})
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func FuzzAdd(f *testing.F) {
	for _, s := range []string{"", "## N\n\n- a\n", "# T\n## N\npara\n## M\n", "---\na: b\n---\n## N", "N\n=\n", "```\n## N\n"} {
		f.Add(s, "N")
	}
	f.Fuzz(func(t *testing.T, src, section string) {
		section = strings.TrimSpace(section)
		out := string(insertBullet([]byte(src), section, "- BULLET\n"))
		if !strings.Contains(out, "- BULLET\n") {
			t.Fatalf("bullet missing from %q", out)
		}
		// The output is the source with one contiguous insertion: every
		// other byte is kept.
		if !oneInsertion(src, out) {
			t.Fatalf("original bytes changed:\nsrc %q\nout %q", src, out)
		}
	})
}

func oneInsertion(src, out string) bool {
	p := 0
	for p < len(src) && src[p] == out[p] {
		p++
	}
	s := 0
	for s < len(src)-p && src[len(src)-1-s] == out[len(out)-1-s] {
		s++
	}
	return p+s == len(src)
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
