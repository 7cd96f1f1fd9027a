package dream

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConflictAllowsTornTopicsOnly: a leftover journal's topic write found
// cut short is the dream's own (a power cut before the batch's sync) and
// is finished; MEMORY.md, the report and the state are fsynced one by
// one, so one of them found cut short was cut by a person, and the
// journal must not overwrite it.
func TestConflictAllowsTornTopicsOnly(t *testing.T) {
	dir := t.TempDir()
	full := "- [Runbook](reference_runbook.md) — how to deploy\n"
	for _, f := range []string{"reference_runbook.md", "MEMORY.md"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(full[:10]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	op := func(p string) fileOp { return fileOp{Path: p, Data: full, Before: absent} }
	if got := conflict(dir, &journal{Writes: []fileOp{op("reference_runbook.md")}}); got != "" {
		t.Errorf("a torn topic write: conflict %q, want none", got)
	}
	if got := conflict(dir, &journal{Last: []fileOp{op("MEMORY.md")}}); got != "MEMORY.md" {
		t.Errorf("MEMORY.md cut short: conflict %q, want MEMORY.md", got)
	}
}
