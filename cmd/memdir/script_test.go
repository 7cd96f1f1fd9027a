package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the real memdir binary inside
// testscript scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memdir": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)) },
	})
}

// TestScripts runs the CLI scripts under testdata/script: the real binary,
// with HOME, MEMDIR_HOME and TZ inside the script's work directory and the
// clock pinned. UPDATE=1 rewrites golden output in the scripts.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE") == "1",
		// [race] is true when every memdir a script starts carries the race
		// detector; scripts that start thousands of processes skip then, and
		// scripts/test runs them again without it.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "race":
				return raceEnabled, nil
			case "crashtest":
				// The crash hooks are built only with -tags crashtest.
				return crashTest, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus,
			"within": cmdWithin,
		},
		Setup: scriptEnv,
	})
}

// scriptEnv sets up a script's environment: HOME, MEMDIR_HOME and TZ
// inside its work directory, the clock pinned, git's identity and no
// system or global git configuration.
func scriptEnv(env *testscript.Env) error {
	work := env.WorkDir
	env.Setenv("HOME", filepath.Join(work, "home"))
	env.Setenv("MEMDIR_HOME", filepath.Join(work, "home", ".memdir"))
	env.Setenv("MEMDIR_MANAGED_CONFIG", filepath.Join(work, "etc", "memdir", "config.yaml"))
	env.Setenv("TZ", "UTC")
	env.Setenv("MEMDIR_NOW", "2026-11-22T10:04:05Z")
	env.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(work, "home", ".gitconfig"))
	env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	env.Setenv("GIT_AUTHOR_NAME", "Test")
	env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	env.Setenv("GIT_COMMITTER_NAME", "Test")
	env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	env.Setenv("FIXTURES", fixtures)
	return os.MkdirAll(filepath.Join(work, "home"), 0o755)
}

// fixtures is the absolute path of the repository's testdata directory.
var fixtures = func() string {
	p, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		// This binary also runs as the memdir of the scripts, some of
		// them from a deleted directory; only the test runner needs it.
		return ""
	}
	return p
}()

// cmdStatus is `status CODE PROGRAM [ARGS...]`: it runs PROGRAM like exec
// and fails unless it exits with exactly CODE, so a script can tell bad
// input (2) from a failure (1). Its stdout and stderr can be checked
// afterwards as after exec.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %q is not an exit code", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdWithin is `[!] within DURATION PROGRAM [ARGS...]`: exec, failing the
// script when PROGRAM is still running after DURATION (a bound on a hang,
// such as a read of a FIFO, not a way to wait for something). The program
// is left running then; the failure is what the script reports.
func cmdWithin(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: [!] within DURATION PROGRAM [ARGS...]")
	}
	d, err := time.ParseDuration(args[0])
	if err != nil {
		ts.Fatalf("within: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- ts.Exec(args[1], args[2:]...) }()
	select {
	case err = <-done:
	case <-time.After(d):
		ts.Fatalf("%s %v still running after %s: it hangs", args[1], args[2:], d)
	}
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s: %v", args[1], err)
	case err == nil && neg:
		ts.Fatalf("%s: unexpected success", args[1])
	}
}
