package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/settings"
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

// exitCode maps an error to the process status: 2 for bad usage or input,
// 1 for everything else.
func exitCode(err error) int {
	var ue userError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		return 2
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

// cwd is the working directory the command acts for: --cwd or the
// process's own.
func (a *app) cwd() (string, error) {
	if a.cwdFlag != "" {
		abs, err := filepath.Abs(a.cwdFlag)
		if err != nil {
			return "", usagef("--cwd %s: %v", a.cwdFlag, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", usagef("--cwd %s: not a directory", a.cwdFlag)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err == nil {
		return wd, nil
	}
	return a.cwdGone(err)
}

// cwdGone picks where to act when the working directory was deleted: an
// absolute --dir or MEMDIR_DIR names the memory, so memdir acts from its
// nearest existing directory; otherwise it cannot know the project.
func (a *app) cwdGone(err error) (string, error) {
	for _, dir := range []string{a.dirFlag, a.getenv("MEMDIR_DIR")} {
		if !filepath.IsAbs(dir) {
			continue
		}
		for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
			if fi, serr := os.Stat(d); serr == nil && fi.IsDir() {
				return d, nil
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return "", usagef("the working directory is gone (%v): cd into the project, or pass --cwd or an absolute --dir", err)
}

// workspace is a resolved project: where it is, its settings and its
// memory directory.
type workspace struct {
	repo     canonical.Repo
	loc      canonical.Location
	settings *settings.Settings
	dir      *memdir.Dir
	cwd      string
}

// workspace resolves the project, its settings and its memory directory.
func (a *app) workspace() (*workspace, error) {
	repo, s, cwd, err := a.project()
	if err != nil {
		return nil, err
	}
	if a.agentType == "" && a.agentScope != "" {
		return nil, usagef("--scope %s needs --agent-type: the scope is that of a subagent's memory", a.agentScope)
	}
	var loc canonical.Location
	if a.agentType != "" {
		loc, err = a.agentLocation(repo)
	} else {
		loc, err = a.locate(repo.Root, s)
	}
	if err != nil {
		return nil, err
	}
	if loc.Source == canonical.SourceDefault {
		if err := canonical.CheckRoot(loc.Dir, loc.Root); err != nil {
			return nil, err
		}
	}
	ws, err := a.openWorkspace(loc, s)
	if err != nil {
		return nil, err
	}
	ws.repo, ws.cwd = repo, cwd
	if loc.Source == canonical.SourceAgent {
		ws.dir.ReadOnly = canonical.AgentEntrypoint(loc.Dir, a.agentScope, filepath.Clean(firstNonEmpty(repo.WorkTree, repo.Root)))
	}
	return ws, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// openWorkspace opens the memory directory loc.Dir with the settings s:
// its mode, lock timeout and clock, the committer that records every
// change (git) and the report of what a lock repaired (stderr). Every
// command's workspace, and each directory `daemon --all` dreams, is opened
// here.
func (a *app) openWorkspace(loc canonical.Location, s *settings.Settings) (*workspace, error) {
	mode, err := a.mode(s, loc.Dir)
	if err != nil {
		return nil, err
	}
	d := memdir.Open(loc.Dir, mode, memdir.WithCommitter(a.committer(s, loc.Dir)), memdir.WithRepairReport(a.repaired),
		memdir.WithFault(a.crashHook()))
	d.Now = a.now
	if to := s.Duration("lock.timeout"); to > 0 {
		d.LockTimeout = to
	}
	return &workspace{loc: loc, settings: s, dir: d}, nil
}

// project finds the project root and loads the settings cascade for it.
func (a *app) project() (canonical.Repo, *settings.Settings, string, error) {
	cwd, err := a.cwd()
	if err != nil {
		return canonical.Repo{}, nil, "", err
	}
	repo, err := canonical.Find(cwd)
	if err != nil {
		return canonical.Repo{}, nil, "", fmt.Errorf("find project root: %w", err)
	}
	flags := map[string]string{}
	if a.dirFlag != "" {
		// A relative --dir is relative to where the command acts.
		dir := a.dirFlag
		if !filepath.IsAbs(dir) && !strings.HasPrefix(dir, "~") {
			dir = filepath.Join(cwd, dir)
		}
		flags["dir"] = dir
	}
	s, err := settings.Load(settings.Options{Root: repo.Root, Getenv: a.getenv, Flags: flags, Cwd: cwd, Committed: committed})
	if err != nil {
		return canonical.Repo{}, nil, "", err
	}
	for _, w := range s.Warnings() {
		if !(w.Untrusted && a.trusting) {
			a.warn("%s", w)
		}
	}
	return repo, s, cwd, nil
}

// committed reports whether a settings file is in the project's git index;
// an index memgit cannot read counts as committed, so trust fails closed.
func committed(path string) bool {
	tracked, err := memgit.Tracked(path)
	return tracked || err != nil
}

// claim records the project root in a memory directory found through the
// slug, so that another root with the same slug is refused later.
func (ws *workspace) claim() error {
	if ws.loc.Source != canonical.SourceDefault {
		return nil
	}
	if err := canonical.CheckRoot(ws.loc.Dir, ws.loc.Root); err != nil || ws.dir.Exists() && rootRecorded(ws.loc.Dir) {
		return err
	}
	// Two roots with one slug may both try to claim a new directory: the
	// lock makes one of them see the other's claim.
	lk, err := ws.dir.Lock("claim root")
	if err != nil {
		return err
	}
	defer lk.Release()
	return canonical.ClaimRoot(ws.loc.Dir, ws.loc.Root)
}

// locate picks the memory directory. The settings cascade has already
// weighed --dir, MEMDIR_DIR, the files and a managed lock; canonical turns
// the winner into a path.
func (a *app) locate(root string, s *settings.Settings) (canonical.Location, error) {
	hide := func(k string) string {
		if k == "MEMDIR_DIR" || k == "MEMDIR_HOME" {
			return ""
		}
		return a.getenv(k)
	}
	opts := canonical.Options{Root: root, HomeSetting: s.Home(), Getenv: hide}
	if v, ok := s.Lookup("dir"); ok && v.Value != "" {
		switch v.Origin.Layer {
		case settings.Flag, settings.Env:
			opts.DirFlag = v.Value
		default:
			opts.DirSetting = v.Value
		}
	}
	loc, err := canonical.Resolve(opts)
	if err != nil {
		return loc, err
	}
	if v, ok := s.Lookup("dir"); ok && v.Origin.Layer == settings.Env {
		loc.Source = canonical.SourceEnv
	}
	return loc, nil
}

// mode is the memory directory's mode, by the one rule of modeOf.
func (a *app) mode(s *settings.Settings, dir string) (memdir.Mode, error) {
	c, err := modeOf(s, dir)
	return c.Mode, err
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
			return usagef("%s takes %s (got %d arguments); see `memdir %s --help`", cmd.Name(), what, len(args), cmd.Name())
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

// rootRecorded reports whether a memory directory already names its root.
func rootRecorded(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(canonical.RootFile)))
	return err == nil
}

// findTopic resolves the workspace and the topic file a person named by
// file name, topic name or slug.
func (a *app) findTopic(ref string) (*workspace, string, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, "", err
	}
	file, err := ws.dir.Find(ref)
	return ws, file, err
}

// topicArgs accepts a topic named in one argument or several: `memdir
// show testing policy` names the topic "testing policy".
func topicArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usagef("%s takes a topic name or file; see `memdir %s --help`", cmd.Name(), cmd.Name())
	}
	return nil
}

// topicRef is the topic the arguments name: the words joined by spaces.
func topicRef(args []string) string { return strings.Join(args, " ") }
