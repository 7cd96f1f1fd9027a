//go:build !unix

package dream

import "os/exec"

// ownProcessGroup does nothing where there are no process groups.
func ownProcessGroup(*exec.Cmd) {}

// killGroup kills the command's process; its children are cut off when
// the pipes close after WaitDelay.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil || cmd.ProcessState != nil {
		return nil
	}
	return cmd.Process.Kill()
}
