package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
	"github.com/memdir/memdir/typesx"
)

// TestSyncConflictsBreakFixPass: a personal conflict copy fails doctor's
// conflicts check, whose fix is a memdir resolve; once resolved the
// check passes.
func TestSyncConflictsBreakFixPass(t *testing.T) {
	dir := t.TempDir()
	d := memdir.Open(dir, memdir.Live)
	res, err := d.Add(memdir.AddRequest{Type: typesx.Feedback, Name: "Use pnpm", Text: "Use pnpm, not npm."})
	if err != nil {
		t.Fatal(err)
	}
	copyName := strings.TrimSuffix(res.File, ".md") + ".conflict-0a1b2c3.md"
	theirs := "---\nname: Use pnpm\ndescription: Use pnpm, not npm.\ntype: feedback\n---\n\nCorepack pins it.\n"
	if err := os.WriteFile(filepath.Join(dir, copyName), []byte(theirs), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func() Check {
		for _, c := range syncChecks(Options{MemoryDir: dir}) {
			if c.Name == "conflicts" {
				return c
			}
		}
		t.Fatal("no conflicts check")
		return Check{}
	}
	c := check()
	if c.Status != Fail || !strings.Contains(c.Fix, "memdir resolve "+res.File) {
		t.Fatalf("with a conflict copy: %+v", c)
	}
	if _, err := memsync.Resolve(d, res.File, memsync.KeepBoth); err != nil {
		t.Fatal(err)
	}
	if c := check(); c.Status != OK {
		t.Errorf("after resolve: %+v", c)
	}
	data, _ := os.ReadFile(filepath.Join(dir, res.File))
	for _, want := range []string{"Use pnpm, not npm.", "Corepack pins it."} {
		if !strings.Contains(string(data), want) {
			t.Errorf("resolved topic lacks %q:\n%s", want, data)
		}
	}
}
