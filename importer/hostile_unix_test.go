//go:build unix

package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestClaudeHostileDir: a memory directory someone else filled: a link to
// a file outside, a FIFO and an oversized file are skipped with a reason,
// never read, and the import does not hang.
func TestClaudeHostileDir(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.md")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(outside, "---\nname: Outside\ndescription: x\ntype: user\n---\n\noutside text\n")
	write(filepath.Join(dir, "MEMORY.md"), "- [Ok](user_ok.md) — fine\n")
	write(filepath.Join(dir, "user_ok.md"), "---\nname: Ok\ndescription: fine\ntype: user\n---\n\nfine\n")
	if err := os.Symlink(outside, filepath.Join(dir, "user_link.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "user_fifo.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, MaxFile+1)
	for i := range big {
		big[i] = 'a'
	}
	write(filepath.Join(dir, "user_big.md"), string(big))
	mems, skips, err := Read(Claude, dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range mems {
		names = append(names, m.Name)
		if strings.Contains(m.Text, "outside text") {
			t.Errorf("read through the link: %+v", m)
		}
	}
	if len(skips) != 3 {
		t.Errorf("skips = %v, want the link, the FIFO and the big file", skips)
	}
	if !slices.Contains(names, "Ok") {
		t.Errorf("memories %v lack Ok", names)
	}
}
