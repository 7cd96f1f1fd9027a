package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/settings"
	wspkg "github.com/memdir/memdir/workspace"
)

// app is what every command shares: streams, environment, clock and the
// global flags. Commands never touch os.Stdout or time.Now directly.
type app struct {
	in     io.Reader
	out    io.Writer
	errw   io.Writer
	getenv func(string) string
	// now is the clock memory is stamped with: MEMDIR_NOW when set.
	now func() time.Time
	// wall is the real clock, for waiting (the daemon's schedule) and for
	// log lines; run sets it, so no command reads time.Now itself.
	wall func() time.Time

	dirFlag string
	cwdFlag string
	json    bool
	// agentType and agentScope select a subagent's own memory
	// (--agent-type, --scope) instead of the project's.
	agentType  string
	agentScope string
	// trusting silences the untrusted-settings notice for `memdir trust`,
	// which says what it trusts instead.
	trusting bool
}

// usageError is a user mistake: bad arguments or input. It exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// UserError marks the error as the user's input (exit 2).
func (e *usageError) UserError() {}

// userError is the one marker of "the user's input was wrong": every
// package's error type for bad input has a UserError method, and exitCode
// maps it to 2 here and nowhere else.
type userError interface{ UserError() }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// errFound is returned by checks that printed their findings: exit 1 and
// nothing more to say.
var errFound = errors.New("problems found")

// exitCoder is an error with a status of its own (memdir sync's 3 for a
// conflict left).
type exitCoder interface{ ExitCode() int }

// exitCode maps an error to the process status: 2 for bad usage or input,
// an exitCoder's own, 1 for everything else.
func exitCode(err error) int {
	var ue userError
	var ec exitCoder
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		return 2
	case errors.As(err, &ec):
		return ec.ExitCode()
	}
	return 1
}

// clock returns the time source: MEMDIR_NOW when set, else the system
// clock.
func clock(getenv func(string) string) (func() time.Time, error) {
	v := getenv("MEMDIR_NOW")
	if v == "" {
		return time.Now, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, usagef("MEMDIR_NOW=%q is not an RFC 3339 time like 2026-11-22T10:04:05Z", v)
	}
	return func() time.Time { return t }, nil
}

// resolver is the workspace options of this command: its flags,
// environment, clock and stderr.
func (a *app) resolver() *wspkg.Options {
	return &wspkg.Options{
		Cwd: a.cwdFlag, Dir: a.dirFlag, AgentType: a.agentType, AgentScope: a.agentScope,
		Getenv: a.getenv, Now: a.now, Trusting: a.trusting,
		Warn:     func(line string) { a.warn("%s", line) },
		Repaired: a.repaired, Fault: a.crashHook(),
	}
}

// cwd is the working directory the command acts for: --cwd or the
// process's own.
func (a *app) cwd() (string, error) { return a.resolver().WorkingDir() }

// workspace is a resolved project: where it is, its settings and its
// memory directory (package workspace resolves it).
type workspace = wspkg.Workspace

// workspace resolves the project, its settings and its memory directory.
func (a *app) workspace() (*workspace, error) {
	w, err := a.resolver().Resolve()
	if err != nil {
		return nil, err
	}
	if w.AgentScope != "" {
		a.agentScope = w.AgentScope
	}
	return w, nil
}

// project finds the project root and loads the settings cascade for it.
func (a *app) project() (canonical.Repo, *settings.Settings, string, error) {
	p, err := a.resolver().FindProject()
	if err != nil {
		return canonical.Repo{}, nil, "", err
	}
	return p.Repo, p.Settings, p.Cwd, nil
}

// writeJSON prints v as indented JSON.
func (a *app) writeJSON(v any) error {
	enc := json.NewEncoder(a.out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// warn prints a warning line on stderr.
func (a *app) warn(format string, args ...any) {
	fmt.Fprintf(a.errw, "memdir: warning: "+format+"\n", args...)
}

// exactArgs is cobra.ExactArgs with a usage error that says what is
// expected.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s (got %s); see `%s --help`", cmd.Name(), what, memdir.Count(len(args), "argument"), cmd.CommandPath())
		}
		return nil
	}
}

// longRunning restores the garbage collector's default pace, which main
// relaxes for short commands, in commands that run for days.
func longRunning() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
}

// topicArgs accepts a topic named in one argument or several: `memdir
// show testing policy` names the topic "testing policy".
func topicArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usagef("%s takes a topic name or file; see `%s --help`", cmd.Name(), cmd.CommandPath())
	}
	return nil
}

// topicRef is the topic the arguments name: the words joined by spaces.
func topicRef(args []string) string { return strings.Join(args, " ") }
