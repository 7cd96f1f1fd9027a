//go:build crashtest

package dream

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestCrashAtEveryFileOperation kills a dream after each of its file
// operations in turn, through the crash hook (go test -tags crashtest),
// and checks that the next dreams finish it exactly as an uninterrupted
// dream would have. TestCrashAtRandomMoments kills dreams from outside,
// without the hook.
func TestCrashAtEveryFileOperation(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	base, fixture, texts, want := crashReference(t)

	// One case per file operation, until the dream outlives the hook.
	for n := 1; ; n++ {
		dir := filepath.Join(base, fmt.Sprint("crash", n))
		copyDir(t, fixture, dir)
		err := helper(dir, n).Run()
		if err == nil {
			if n < 3 {
				t.Fatalf("the dream finished before its operation %d: the hook never fired", n)
			}
			break // n is past the last operation
		}
		if !killed(err) {
			t.Fatalf("crash after %d: %v, want SIGKILL", n, err)
		}
		t.Run(fmt.Sprint("after", n), func(t *testing.T) {
			t.Parallel()
			// Die again while finishing the first dream's journal, then finish.
			if err := helper(dir, 1).Run(); err != nil && !killed(err) {
				t.Fatalf("second crash: %v", err)
			}
			finishAndCompare(t, dir, want, texts, fmt.Sprintf("crash after %d operations", n))
		})
	}
}
