//go:build !crashtest

package dream

import (
	"path/filepath"
	"testing"
)

// TestNoCrashHook checks that a dream built without -tags crashtest, as
// memdir ships, ignores the crash hook's variable: asked to die after its
// first file operation, it finishes.
func TestNoCrashHook(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real process")
	}
	dir := filepath.Join(t.TempDir(), "mem")
	texts := crashFixture(t, dir, 1, 4)
	cmd := helper(dir, 1)
	cmd.Env = append(cmd.Env, "MEMDIR_DREAM_CRASH_AT="+crashWritten)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("dream with %s=1: %v\n%s", crashAfterEnv, err, out)
	}
	checkExactlyOnce(t, snapshotFiles(t, dir), texts)
}
