// Package workspace owns "which memory is this": from what a front end
// knows (a working directory, --dir, an agent type and scope, the
// environment and the clock) to the project, its settings and its opened
// memory directory with the committer that records each change. The CLI,
// the MCP server, the viewer, doctor and the daemon all resolve through
// it, so none of them copies another's flags to find a project.
package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/settings"
)

// Options is what the caller knows. The zero value resolves the process's
// working directory with the real environment and clock.
type Options struct {
	// Cwd is the directory to act for (--cwd); empty means the process's.
	Cwd string
	// Dir is an explicit memory directory (--dir), relative to Cwd.
	Dir string
	// AgentType and AgentScope select a subagent's own memory
	// (--agent-type, --scope) instead of the project's.
	AgentType, AgentScope string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Now is the clock memory is stamped with; nil means time.Now.
	Now func() time.Time
	// Warn receives each warning line (settings notices, a commit git
	// refused); nil drops them.
	Warn func(string)
	// Trusting silences the untrusted-settings notice, for `memdir trust`,
	// which says what it trusts instead.
	Trusting bool
	// Repaired reports what a lock repaired after a killed memdir.
	Repaired func(*memdir.Recovery)
	// Fault is the crash tests' hook (built only with -tags crashtest).
	Fault func(string)
}

// Project is a project found from a working directory: its repository
// and its settings cascade.
type Project struct {
	Repo     canonical.Repo
	Settings *settings.Settings
	// Cwd is the directory the command acts for.
	Cwd string
}

// WorkTree is the project's work tree (a linked worktree's own), else
// its canonical root.
func (p *Project) WorkTree() string {
	if p.Repo.WorkTree != "" {
		return p.Repo.WorkTree
	}
	return p.Repo.Root
}

// Workspace is a resolved memory: the project, where its memory directory
// is and why, and the opened store.
type Workspace struct {
	Project
	Loc canonical.Location
	Dir *memdir.Dir
	// AgentScope is the subagent memory's scope, when --agent-type chose
	// one (found when only one scope has that type's memory).
	AgentScope string
}

// UsageError is a mistake in what the user asked for: it exits 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// UserError marks the error as the user's input.
func (e *UsageError) UserError() {}

func usagef(format string, a ...any) error { return &UsageError{msg: fmt.Sprintf(format, a...)} }

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

func (o *Options) now() func() time.Time {
	if o.Now == nil {
		return time.Now
	}
	return o.Now
}

func (o *Options) warnf(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// WorkingDir is the directory the caller acts for: Cwd, or the process's
// own. When the process's directory was deleted, an absolute Dir or
// MEMDIR_DIR names the memory and its nearest existing directory serves.
func (o *Options) WorkingDir() (string, error) {
	if o.Cwd != "" {
		abs, err := filepath.Abs(o.Cwd)
		if err != nil {
			return "", usagef("--cwd %s: %v", o.Cwd, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", usagef("--cwd %s: not a directory", o.Cwd)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err == nil {
		return wd, nil
	}
	for _, dir := range []string{o.Dir, o.getenv("MEMDIR_DIR")} {
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

// FindProject finds the project root and loads the settings cascade for
// it; settings warnings go to Warn.
func (o *Options) FindProject() (*Project, error) {
	cwd, err := o.WorkingDir()
	if err != nil {
		return nil, err
	}
	repo, err := canonical.Find(cwd)
	if err != nil {
		return nil, fmt.Errorf("find project root: %w", err)
	}
	flags := map[string]string{}
	if o.Dir != "" {
		// A relative --dir is relative to where the command acts.
		dir := o.Dir
		if !filepath.IsAbs(dir) && !strings.HasPrefix(dir, "~") {
			dir = filepath.Join(cwd, dir)
		}
		flags["dir"] = dir
	}
	s, err := settings.Load(settings.Options{Root: repo.Root, Getenv: o.getenv, Flags: flags, Cwd: cwd, Committed: committed})
	if err != nil {
		return nil, err
	}
	for _, w := range s.Warnings() {
		if !(w.Untrusted && o.Trusting) {
			o.warnf("%s", w)
		}
	}
	return &Project{Repo: repo, Settings: s, Cwd: cwd}, nil
}

// committed reports whether a settings file is in the project's git index;
// an index memgit cannot read counts as committed, so trust fails closed.
func committed(path string) bool {
	tracked, err := memgit.Tracked(path)
	return tracked || err != nil
}

// Resolve finds the project and opens the memory the options select: the
// project's personal memory, or a subagent's with AgentType.
func (o *Options) Resolve() (*Workspace, error) {
	p, err := o.FindProject()
	if err != nil {
		return nil, err
	}
	return o.ResolveIn(p)
}

// ResolveIn opens the memory the options select in a project already
// found.
func (o *Options) ResolveIn(p *Project) (*Workspace, error) {
	if o.AgentType == "" && o.AgentScope != "" {
		return nil, usagef("--scope %s needs --agent-type: the scope is that of a subagent's memory", o.AgentScope)
	}
	var (
		loc   canonical.Location
		scope string
		err   error
	)
	if o.AgentType != "" {
		loc, scope, err = o.agentLocation(p.Repo)
	} else {
		loc, err = o.Locate(p)
	}
	if err != nil {
		return nil, err
	}
	if loc.Source == canonical.SourceDefault {
		if err := canonical.CheckRoot(loc.Dir, loc.Root); err != nil {
			return nil, err
		}
	}
	var extra []memdir.Option
	if loc.Source == canonical.SourceAgent {
		extra = append(extra, memdir.WithReadOnly(canonical.AgentEntrypoint(loc.Dir, scope, filepath.Clean(p.WorkTree()))))
	}
	ws, err := o.Open(p, loc, extra...)
	if err != nil {
		return nil, err
	}
	ws.AgentScope = scope
	return ws, nil
}

// Open opens the memory directory loc.Dir of the project p: its mode,
// lock timeout and clock, the committer that records every change and
// the report of what a lock repaired. Every workspace, and each directory
// `daemon --all` dreams or the viewer lists, is opened here.
func (o *Options) Open(p *Project, loc canonical.Location, extra ...memdir.Option) (*Workspace, error) {
	mode, err := Mode(p.Settings, loc.Dir)
	if err != nil {
		return nil, err
	}
	opts := append(o.storeOptions(p.Settings), memdir.WithCommitter(o.Committer(p.Settings, loc.Dir)))
	d := memdir.Open(loc.Dir, mode, append(opts, extra...)...)
	return &Workspace{Project: *p, Loc: loc, Dir: d}, nil
}

// storeOptions are what every directory a workspace opens shares: the
// clock, the lock timeout, the repair report, the crash tests' hook and
// the dream's supersede rule for adds.
func (o *Options) storeOptions(s *settings.Settings) []memdir.Option {
	return []memdir.Option{memdir.WithClock(o.now()), memdir.WithLockTimeout(s.Duration("lock.timeout")),
		memdir.WithRepairReport(o.Repaired), memdir.WithFault(o.Fault), memdir.WithSupersede(dream.Supersedes)}
}

// Locate picks the project's memory directory. The settings cascade has
// already weighed --dir, MEMDIR_DIR, the files and a managed lock;
// canonical turns the winner into a path.
func (o *Options) Locate(p *Project) (canonical.Location, error) {
	s := p.Settings
	hide := func(k string) string {
		if k == "MEMDIR_DIR" || k == "MEMDIR_HOME" {
			return ""
		}
		return o.getenv(k)
	}
	opts := canonical.Options{Root: p.Repo.Root, HomeSetting: s.Home(), Getenv: hide}
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

// Claim records the project root in a memory directory found through the
// slug, so that another root with the same slug is refused later.
func (ws *Workspace) Claim() error {
	if ws.Loc.Source != canonical.SourceDefault {
		return nil
	}
	if err := canonical.CheckRoot(ws.Loc.Dir, ws.Loc.Root); err != nil || ws.Dir.Exists() && rootRecorded(ws.Loc.Dir) {
		return err
	}
	// Two roots with one slug may both try to claim a new directory: the
	// lock makes one of them see the other's claim.
	lk, err := ws.Dir.Lock("claim root")
	if err != nil {
		return err
	}
	defer lk.Release()
	return canonical.ClaimRoot(ws.Loc.Dir, ws.Loc.Root)
}

// rootRecorded reports whether a memory directory already names its root.
func rootRecorded(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(canonical.RootFile)))
	return err == nil
}

// SettingsPath is the file of a settings layer for the project, found
// even when the settings do not load (a mistake in that very file, say),
// so that the file can be mended.
func (o *Options) SettingsPath(layer settings.Layer) (string, error) {
	cwd, err := o.WorkingDir()
	if err != nil {
		return "", err
	}
	repo, err := canonical.Find(cwd)
	if err != nil {
		return "", fmt.Errorf("find project root: %w", err)
	}
	home := o.getenv("MEMDIR_HOME")
	if home == "" {
		home = filepath.Join(o.getenv("HOME"), ".memdir")
	}
	path, err := settings.LayerPath(layer, repo.Root, home)
	if err != nil {
		return "", usagef("%v", err)
	}
	return path, nil
}
