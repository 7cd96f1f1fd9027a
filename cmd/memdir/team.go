package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/mcpserver"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/sessionctx"
	"github.com/memdir/memdir/settings"
	memsync "github.com/memdir/memdir/sync"
	"github.com/memdir/memdir/untrusted"
)

// Team memory is a memory directory committed with the project
// (<work tree>/.memdir/team unless team.dir moves it), shared with
// everyone who works in it through the project's own git host. It is
// opened with the same store as personal memory, so caps, locks, the
// secret scan and validation are the same code; it is always live (daily
// logs are personal) and never holds a private topic.

// scopeTeam marks team memory in JSON output ("scope": "team").
const scopeTeam = "team"

// teamMemory is the project's team memory: where it lives and its store.
type teamMemory struct {
	// rel is the directory relative to the project's work tree,
	// slash-separated, as context and messages name it.
	rel string
	dir *memdir.Dir
}

// teamOutside is the refusal of a team.dir that leaves the project.
func teamOutside(rel, root, why string) error {
	return usagef("team.dir %q %s: team memory is committed with the project, so it stays inside %s; set team.dir to a directory inside it, such as %s", rel, why, root, teamDefault)
}

// agentConfigDirs are the project directories agents load commands,
// subagents, rules and instructions from: team memory, which a teammate
// or a team remote writes, never lives there.
var agentConfigDirs = []string{".claude", ".codex", ".gemini", ".amp", ".github", ".cursor", ".agents", ".vscode"}

// sameDir reports whether two directories are one, symbolic links
// resolved (a committed link can make two settings name one place).
func sameDir(a, b string) bool {
	return filepath.Clean(a) == filepath.Clean(b) || evalOr(a) == evalOr(b)
}

// teamDefault is where team memory lives when team.dir is not set.
const teamDefault = ".memdir/team"

// resolveTeamDir returns the team memory directory rel (relative to the
// project's work tree root) as an absolute path with its symbolic links
// resolved. Every existing part is looked up through os.Root, so a path
// or a symbolic link that leads out of the project is refused (exit 2);
// the directory need not exist yet.
func resolveTeamDir(root, rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if strings.TrimSpace(rel) == "" || !filepath.IsLocal(clean) {
		return "", teamOutside(rel, root, "is not a path inside the project")
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return "", fmt.Errorf("team memory: %w", err)
	}
	defer r.Close()
	if clean == "." {
		return "", teamOutside(rel, root, "is the project's root itself, not a directory of its own")
	}
	parts := strings.Split(clean, string(filepath.Separator))
	for _, p := range parts {
		if strings.EqualFold(p, ".git") {
			return "", usagef("team.dir %q is inside .git, which git never commits or shares: set team.dir to a directory of the work tree, such as %s", rel, teamDefault)
		}
	}
	if slices.ContainsFunc(agentConfigDirs, func(d string) bool { return strings.EqualFold(parts[0], d) }) {
		return "", usagef("team.dir %q is inside %s, where agents load commands, rules and instructions: set team.dir to a directory of its own, such as %s", rel, parts[0], teamDefault)
	}
	existing := root
	for i := range parts {
		p := filepath.Join(parts[:i+1]...)
		fi, err := r.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return joinInside(root, existing, filepath.Join(parts[i:]...), rel)
		case untrusted.Escapes(err):
			return "", teamOutside(rel, root, "leads out of the project through the symbolic link "+filepath.ToSlash(p))
		case err != nil:
			return "", fmt.Errorf("team memory %s: %w", rel, err)
		case !fi.IsDir():
			return "", usagef("team.dir %q: %s is not a directory", rel, filepath.ToSlash(p))
		}
		existing = filepath.Join(root, p)
	}
	return joinInside(root, existing, "", rel)
}

// joinInside resolves the existing part of the team directory, appends
// the part still to be created and checks once more that the result is
// inside root (os.Root already refused an escape; this guards the second
// walk EvalSymlinks makes).
func joinInside(root, existing, rest, rel string) (string, error) {
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("team memory %s: %w", rel, err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("team memory: %w", err)
	}
	dir := filepath.Join(real, rest)
	in, err := filepath.Rel(realRoot, dir)
	if err != nil || !filepath.IsLocal(in) {
		return "", teamOutside(rel, root, "leads out of the project through a symbolic link")
	}
	return dir, refusedPlace(rel, in)
}

// refusedPlace refuses a team directory whose real place (in, relative
// to the project's real root, symbolic links followed) is inside .git or
// an agent's configuration: a link committed as .memdir/team ->
// ../.claude/agents must not make a teammate's file an agent's command.
func refusedPlace(rel, in string) error {
	parts := strings.Split(in, string(filepath.Separator))
	for _, p := range parts {
		if strings.EqualFold(p, ".git") {
			return usagef("team.dir %q leads into .git (%s), which git never commits or shares: set team.dir to a directory of the work tree, such as %s", rel, filepath.ToSlash(in), teamDefault)
		}
	}
	if slices.ContainsFunc(agentConfigDirs, func(d string) bool { return strings.EqualFold(parts[0], d) }) {
		return usagef("team.dir %q leads into %s (%s), where agents load commands, rules and instructions: set team.dir to a directory of its own, such as %s, and remove any link there", rel, parts[0], filepath.ToSlash(in), teamDefault)
	}
	return nil
}

// team opens the project's team memory, or returns nil when the
// workspace is a subagent's memory (which has no team part). With create,
// the directory and its .gitignore (memdir's state never committed) are
// made, as before a write.
func (a *app) team(ws *workspace, create bool) (*teamMemory, error) {
	if ws.loc.Source == canonical.SourceAgent {
		return nil, nil
	}
	root := firstNonEmpty(ws.repo.WorkTree, ws.repo.Root)
	rel := ws.settings.Get("team.dir")
	if rel == "" {
		rel = teamDefault
	}
	dir, err := resolveTeamDir(root, rel)
	if err != nil {
		return nil, err
	}
	if sameDir(dir, ws.loc.Dir) {
		return nil, usagef("team.dir %q is the personal memory directory too: give team memory a directory of its own, such as %s", rel, teamDefault)
	}
	// memdir's state inside it (.memdir/) is where the lock and the search
	// index go: one a clone linked out of the directory, or made a file,
	// is refused before anything is read or written.
	if fi, err := atomicfile.StatInside(dir, memdir.StateDir); errors.Is(err, atomicfile.ErrOutside) {
		return nil, teamOutside(rel, root, "keeps its state ("+memdir.StateDir+") through a symbolic link out of the team directory")
	} else if err == nil && !fi.IsDir() {
		return nil, usagef("team memory %s: %s is not a directory; remove it", rel, memdir.StateDir)
	}
	if create {
		if err := a.makeTeamDir(root, rel, dir, driverTrusted(ws, rel)); err != nil {
			return nil, err
		}
	}
	d := memdir.Open(dir, memdir.Live, memdir.WithRepairReport(a.repaired), memdir.WithFault(a.crashHook()))
	d.Now = a.now
	if to := ws.settings.Duration("lock.timeout"); to > 0 {
		d.LockTimeout = to
	}
	return &teamMemory{rel: filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), dir: d}, nil
}

// makeTeamDir creates the team directory inside root (os.Root refuses a
// link swapped in on the way) and writes its .gitignore when it has none;
// with the first .gitignore it registers memdir's merge driver for it,
// when register allows (driverTrusted).
func (a *app) makeTeamDir(root, rel, dir string, register bool) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("team memory: %w", err)
	}
	defer r.Close()
	if err := r.MkdirAll(filepath.Clean(filepath.FromSlash(rel)), 0o755); err != nil {
		if untrusted.Escapes(err) {
			return teamOutside(rel, root, "leads out of the project through a symbolic link")
		}
		return fmt.Errorf("team memory: %w", err)
	}
	made, err := memgit.EnsureIgnore(dir)
	if err != nil || !made {
		return err
	}
	if !register {
		a.warn("team memory %s: git's merge driver not registered: team.dir comes from the project's settings, which you have not trusted (memdir trust, then memdir init, registers it)", rel)
		return nil
	}
	// A new team directory: git merge and git pull merge its indexes by
	// entry, as a sync does (the user's own command registers the driver).
	_, err = memsync.RegisterDriver(context.Background(), dir, root)
	return err
}

// teamExisting opens the team memory for a read: nil when there is none
// in this project yet.
func (a *app) teamExisting(ws *workspace) (*teamMemory, error) {
	tm, err := a.team(ws, false)
	if err != nil || tm == nil || !tm.dir.Exists() {
		return nil, err
	}
	return tm, nil
}

// teamRead opens the team memory for a read that also shows personal
// memory (context, search, list): a team directory refused as leading
// out of the project is left out with a warning rather than failing the
// read, so a hostile clone cannot stop a session from starting.
func (a *app) teamRead(ws *workspace) *teamMemory {
	if a.agentType != "" {
		return nil
	}
	tm, err := a.teamExisting(ws)
	if err != nil {
		a.warn("team memory left out: %v", err)
		return nil
	}
	return tm
}

// scopeDir is the memory directory a topic command acts on: the team's
// with --team, else the personal one.
func (a *app) scopeDir(ws *workspace, team bool) (*memdir.Dir, string, error) {
	if !team {
		return ws.dir, ws.loc.Dir, nil
	}
	if a.agentType != "" {
		return nil, "", usagef("--team and --agent-type: a subagent's memory has no team part")
	}
	tm, err := a.teamExisting(ws)
	if err != nil {
		return nil, "", err
	}
	if tm == nil {
		return nil, "", usagef("no team memory in this project yet: `memdir add --team` creates it")
	}
	return tm.dir, tm.dir.Path, nil
}

// addTarget is the directory an add writes to: the personal one (claimed
// for the project on first write) or, with team, the team's, created on
// first write.
func (a *app) addTarget(team bool) (*memdir.Dir, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, err
	}
	if !team {
		return ws.dir, ws.claim()
	}
	if a.agentType != "" {
		return nil, usagef("--team and --agent-type: a subagent's memory has no team part")
	}
	tm, err := a.team(ws, true)
	if err != nil {
		return nil, err
	}
	return tm.dir, nil
}

// topicIn resolves the topic a person named: in the team memory with
// team, else in the personal memory; with fallback (reads only), a topic
// not found there is looked for in the team memory too. It returns the
// directory the topic is in and whether that is the team's.
func (a *app) topicIn(ref string, team, fallback bool) (*workspace, *memdir.Dir, string, bool, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, nil, "", false, err
	}
	d, _, err := a.scopeDir(ws, team)
	if err != nil {
		return nil, nil, "", false, err
	}
	file, err := d.Find(ref)
	if err == nil || team || !fallback || !errors.Is(err, memdir.ErrNotFound) || a.agentType != "" {
		return ws, d, file, team, err
	}
	tm, terr := a.teamExisting(ws)
	if terr != nil || tm == nil {
		return ws, d, file, false, err
	}
	if tfile, terr := tm.dir.Find(ref); terr == nil {
		return ws, tm.dir, tfile, true, nil
	}
	return ws, d, file, false, err
}

// teamContext is the team memory for the session context: nil when the
// project has none.
func (a *app) teamContext(ws *workspace) (*sessionctx.TeamMemory, error) {
	tm := a.teamRead(ws)
	if tm == nil {
		return nil, nil
	}
	data, err := tm.dir.AgentIndex(index.DefaultCaps)
	if err != nil {
		return nil, err
	}
	return &sessionctx.TeamMemory{Dir: tm.dir.Path, Rel: tm.rel, Index: data, Caps: index.DefaultCaps}, nil
}

// mcpTeam is the team memory opener of an MCP call's project: nil for a
// subagent's memory, which has no team part.
func (a *app) mcpTeam(ws *workspace) mcpserver.TeamOpener {
	if ws.loc.Source == canonical.SourceAgent {
		return nil
	}
	return func(create bool) (*mcpserver.Team, error) {
		tm, err := a.team(ws, create)
		if err != nil || tm == nil {
			return nil, err
		}
		return &mcpserver.Team{Dir: tm.dir, Rel: tm.rel}, nil
	}
}

// driverTrusted reports whether memdir may register its merge driver for
// the team directory rel: the default one always; another only when
// team.dir comes from the user's own settings or from project settings
// the user trusted (memdir trust), so that a clone's team.dir: docs
// cannot route every docs/*.md of the project to the driver.
func driverTrusted(ws *workspace, rel string) bool {
	if filepath.Clean(filepath.FromSlash(rel)) == filepath.FromSlash(teamDefault) {
		return true
	}
	v, ok := ws.settings.Lookup("team.dir")
	if !ok || v.Origin.Layer != settings.Project {
		return true
	}
	root := firstNonEmpty(ws.repo.WorkTree, ws.repo.Root)
	data, err := untrusted.ReadFile(ws.settings.File(settings.Project), root, untrusted.MaxSettings)
	return err == nil && settings.IsTrusted(ws.settings.TrustHome(), root, data)
}
