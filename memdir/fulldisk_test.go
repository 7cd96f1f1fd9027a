package memdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memdir/memdir/internal/diskfull"
	"github.com/memdir/memdir/typesx"
)

// rm on a full disk changes nothing: the index cannot be written, so the
// topic stays, still listed. Before, the topic was removed and its line
// left dangling.
func TestRemoveOnFullDisk(t *testing.T) {
	mnt := diskfull.Mount(t, 64<<10)
	d := Open(filepath.Join(mnt, "mem"), Live)
	for _, name := range []string{"Testing policy", "Style"} {
		if _, err := d.Add(AddRequest{Type: typesx.Feedback, Name: name, Text: name + " text."}); err != nil {
			t.Fatal(err)
		}
	}
	ballast := diskfull.Fill(t, mnt, "ballast")
	err := d.Remove("feedback_style.md")
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Remove on a full disk = %v, want ENOSPC", err)
	}
	if _, err := os.Stat(filepath.Join(d.Path, "feedback_style.md")); err != nil {
		t.Errorf("the topic is gone although the index could not be written: %v", err)
	}
	if err := os.Remove(ballast); err != nil {
		t.Fatal(err)
	}
	findings, err := d.CheckIndex()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if f.Level == LevelError {
			t.Errorf("after the failed rm: %s", f)
		}
	}
	if err := d.Remove("feedback_style.md"); err != nil {
		t.Fatalf("rm with room again: %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(d.Path, IndexFile))
	if strings.Contains(string(data), "feedback_style.md") {
		t.Error("the removed topic is still listed")
	}
}
