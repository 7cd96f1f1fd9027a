//go:build crashtest

package dream

import (
	"os"
	"strconv"
	"sync/atomic"
)

// CrashTest reports whether this binary carries the crash tests' hook:
// it does when built with -tags crashtest, never otherwise.
const CrashTest = true

// CrashAfterEnv names the crash tests' hook: with it set to N, a dream
// kills its own process with SIGKILL after N file operations.
const CrashAfterEnv = "MEMDIR_DREAM_CRASH_AFTER"

// crashHook counts a dream's file operations and, at the count
// CrashAfterEnv names, dies the way a power cut or kill -9 would: no
// deferred cleanup runs.
type crashHook struct {
	after int64 // 0: never
	ops   atomic.Int64
}

func newCrashHook() *crashHook {
	n, _ := strconv.ParseInt(os.Getenv(CrashAfterEnv), 10, 64)
	return &crashHook{after: max(n, 0)}
}

// step counts one file operation.
func (h *crashHook) step() {
	if n := h.ops.Add(1); h.after > 0 && n >= h.after {
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			_ = p.Kill() // SIGKILL where there are signals
		}
		select {} // the signal is on its way
	}
}
