//go:build !linux

package memsync

import "os/exec"

// dieWithParent does nothing where the system cannot tie a child's life
// to its parent's; git's own ref locks then guard the repository, and a
// sync that meets one retries.
func dieWithParent(*exec.Cmd) {}
