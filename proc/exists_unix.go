//go:build unix

package proc

import (
	"errors"
	"syscall"
)

// exists reports whether some process has pid (one owned by another user
// counts).
func exists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}
