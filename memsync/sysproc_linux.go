package memsync

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes git die with memdir: a sync killed in the middle
// leaves no git running on its repository beside the next sync.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
