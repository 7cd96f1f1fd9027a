//go:build crashtest

package main

import "os"

// crashTest reports whether this binary carries the crash tests' hooks
// (go build -tags crashtest); the shipped binary does not.
const crashTest = true

// crashHook reads the crash tests' hook, MEMDIR_CRASH_AT=POINT: the
// process kills itself (SIGKILL, as the OOM killer or a power cut would
// stop it) when a write reaches POINT, such as "write MEMORY.md".
func (a *app) crashHook() func(string) {
	at := a.getenv("MEMDIR_CRASH_AT")
	if at == "" {
		return nil
	}
	return func(point string) {
		if point == at {
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				_ = p.Kill()
			}
			select {}
		}
	}
}
