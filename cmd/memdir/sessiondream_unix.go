//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/memdir"
)

// dreamIfOverdue starts, at a session start in log mode, a dream that is
// overdue (dream.Overdue) as a detached process of its own: the session
// never waits for it, a running dream is never joined by a second (the
// dream's lock), and nothing it prints reaches the hook's output. It
// returns why it started one, or "".
func (a *app) dreamIfOverdue(ws *workspace) string {
	if ws.dir.Mode != memdir.Log || !ws.settings.Bool("dream.at_session_start") {
		return ""
	}
	due, why, err := dream.Overdue(ws.dir, a.wall())
	if err != nil || !due {
		return ""
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return ""
	}
	defer null.Close()
	// argv[0] as this process got it: a binary that dispatches on its
	// name (tests) runs as memdir again.
	cmd := &exec.Cmd{Path: exe, Args: []string{os.Args[0], "--dir", ws.loc.Dir, "--cwd", ws.cwd, "dream"},
		Stdin: null, Stdout: null, Stderr: null,
		SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	if err := cmd.Start(); err != nil {
		return ""
	}
	_ = cmd.Process.Release()
	return why
}
