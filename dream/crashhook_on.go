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

// CrashAtEnv names the crash tests' other hook: with it set to the name
// of a point of the dream ("written": every topic written and none
// synced; "synced": the topics synced and the index, report and state
// not yet written), a dream kills its own process there.
const CrashAtEnv = "MEMDIR_DREAM_CRASH_AT"

// crashHook counts a dream's file operations and, at the count
// CrashAfterEnv names, dies the way a power cut or kill -9 would: no
// deferred cleanup runs.
type crashHook struct {
	after int64  // 0: never
	point string // "": never
	ops   atomic.Int64
}

func newCrashHook() *crashHook {
	n, _ := strconv.ParseInt(os.Getenv(CrashAfterEnv), 10, 64)
	return &crashHook{after: max(n, 0), point: os.Getenv(CrashAtEnv)}
}

// at is the named point of a dream: the hook dies there when told to.
func (h *crashHook) at(point string) {
	if h.point == point {
		die()
	}
}

// step counts one file operation.
func (h *crashHook) step() {
	if n := h.ops.Add(1); h.after > 0 && n >= h.after {
		die()
	}
}

// die kills this process with SIGKILL, as a power cut or kill -9 would
// end it: no deferred cleanup runs.
func die() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill() // SIGKILL where there are signals
	}
	select {} // the signal is on its way
}
