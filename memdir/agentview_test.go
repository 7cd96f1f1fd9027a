//go:build unix

package memdir

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
