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
	if ws.Dir.Mode != memdir.Log || !ws.Settings.Bool("dream.at_session_start") {
		return ""
	}
	due, why, err := dream.Overdue(ws.Dir, a.wall())
	if err != nil || !due {
		return ""
	}
	if startDetached("--dir", ws.Loc.Dir, "--cwd", ws.Cwd, "dream") != nil {
		return ""
	}
	return why
}

// startDetached starts memdir with args as a process of its own session,
// at a low priority, its standard streams on /dev/null, and does not wait
// for it: the
// caller (a session-start hook) returns at once and the process outlives
// it. It is the one way memdir starts background work of its own.
func startDetached(args ...string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	// argv[0] as this process got it: a binary that dispatches on its
	// name (tests) runs as memdir again.
	cmd := &exec.Cmd{Path: exe, Args: append([]string{os.Args[0]}, args...),
		Stdin: null, Stdout: null, Stderr: null,
		SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	if err := cmd.Start(); err != nil {
		return err
	}
	// Background work yields the CPU to the session it serves.
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, cmd.Process.Pid, backgroundNice)
	return cmd.Process.Release()
}

// backgroundNice is the niceness of the processes startDetached starts.
const backgroundNice = 10
