//go:build unix

package memdir

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/index"
)

// TestAgentIndexLeavesOutPrivate: a line that points at a private topic
// is left out of the agent's index, also through a symbolic link that
// stays inside the directory; a link out is not followed (its line
// stays), and a FIFO neither hangs the read nor counts as private.
func TestAgentIndexLeavesOutPrivate(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	private := "---\nname: Secret\ndescription: d\ntype: user\nprivate: true\n---\n\nbody\n"
	write(filepath.Join(dir, "user_secret.md"), private)
	write(filepath.Join(dir, "user_public.md"), "---\nname: Public\ndescription: d\ntype: user\n---\n\nbody\n")
	write(filepath.Join(outside, "far.md"), private)
	if err := os.Symlink("user_secret.md", filepath.Join(dir, "user_alias.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "far.md"), filepath.Join(dir, "user_far.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "user_fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ix strings.Builder
	for _, f := range []string{"user_secret.md", "user_public.md", "user_alias.md", "user_far.md", "user_fifo.md"} {
		ix.WriteString("- [" + f + "](" + f + ") — hook\n")
	}
	write(filepath.Join(dir, "MEMORY.md"), ix.String())

	got, err := Open(dir, Live).AgentIndex(index.DefaultCaps)
	if err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{"user_secret.md": false, "user_alias.md": false,
		"user_public.md": true, "user_far.md": true, "user_fifo.md": true} {
		if in := strings.Contains(string(got), "("+f+")"); in != want {
			t.Errorf("agent index lists %s: %v, want %v\n%s", f, in, want, got)
		}
	}
}

// TestAgentIndexLongFrontmatter: private: true after the first read's
// 4096 bytes still leaves the line out (the whole file is read then), as
// does a frontmatter that lost its closing line; a public topic with as
// long a frontmatter stays.
func TestAgentIndexLongFrontmatter(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 5000)
	for f, s := range map[string]string{
		"user_late.md":     "---\nname: Late\ndescription: " + long + "\ntype: user\nprivate: true\n---\n\nbody\n",
		"user_unclosed.md": "---\nname: Open\ndescription: " + long + "\ntype: user\nprivate: yes\n\nbody\n",
		"user_public.md":   "---\nname: Public\ndescription: " + long + "\ntype: user\n---\n\nprivate: true in the body\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix := "- [Late](user_late.md) — h\n- [Open](user_unclosed.md) — h\n- [Public](user_public.md) — h\n"
	if err := os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte(ix), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Open(dir, Live).AgentIndex(index.DefaultCaps)
	if err != nil {
		t.Fatal(err)
	}
	if want := "- [Public](user_public.md) — h\n"; string(got) != want {
		t.Errorf("agent index:\n%s\nwant:\n%s", got, want)
	}
}

// TestAgentIndexParsed: the index AgentIndexParsed returns is the text it
// returns, parsed, whether or not private lines were left out.
func TestAgentIndexParsed(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("user_open.md", "---\nname: Open\ndescription: d\ntype: user\n---\n\nbody\n")
	write("user_hidden.md", "---\nname: Hidden\ndescription: d\ntype: user\nprivate: true\n---\n\nbody\n")
	d := Open(dir, Live)
	for _, ix := range []string{
		"# Notes\r\n- [Open](user_open.md) — h\r\n",
		"# Notes\r\n- [Hidden](user_hidden.md) — h\r\n- [Open](user_open.md) — h",
	} {
		write("MEMORY.md", ix)
		data, parsed, err := d.AgentIndexParsed(index.DefaultCaps)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(index.Parse(data).Lines, parsed.Lines); diff != "" {
			t.Errorf("parsed index differs from the text parsed (-want +got):\n%s", diff)
		}
		if strings.Contains(string(data), "Hidden") {
			t.Errorf("private line kept: %q", data)
		}
	}
}
