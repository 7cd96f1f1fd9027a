package workspace

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
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/memsync"
	"github.com/memdir/memdir/settings"
	"github.com/memdir/memdir/untrusted"
)

// Team memory is a memory directory committed with the project
// (<work tree>/.memdir/team unless team.dir moves it), shared with
// everyone who works in it through the project's own git host. It is
// opened with the same store as personal memory, so caps, locks, the
// secret scan and validation are the same code; it is always live (daily
// logs are personal) and never holds a private topic.

// Team is a project's team memory: where it lives and its store.
type Team struct {
	// Rel is the directory relative to the project's work tree,
	// slash-separated, as context and messages name it.
	Rel string
	Dir *memdir.Dir
}

// teamOutside is the refusal of a team.dir that leaves the project.
func teamOutside(rel, root, why string) error {
	return usagef("team.dir %q %s: team memory is committed with the project, so it stays inside %s; set team.dir to a directory inside it, such as %s", rel, why, root, TeamDefault)
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

// TeamDefault is where team memory lives when team.dir is not set.
const TeamDefault = ".memdir/team"

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
			return "", usagef("team.dir %q is inside .git, which git never commits or shares: set team.dir to a directory of the work tree, such as %s", rel, TeamDefault)
		}
	}
	if slices.ContainsFunc(agentConfigDirs, func(d string) bool { return strings.EqualFold(parts[0], d) }) {
		return "", usagef("team.dir %q is inside %s, where agents load commands, rules and instructions: set team.dir to a directory of its own, such as %s", rel, parts[0], TeamDefault)
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
			return usagef("team.dir %q leads into .git (%s), which git never commits or shares: set team.dir to a directory of the work tree, such as %s", rel, filepath.ToSlash(in), TeamDefault)
		}
	}
	if slices.ContainsFunc(agentConfigDirs, func(d string) bool { return strings.EqualFold(parts[0], d) }) {
		return usagef("team.dir %q leads into %s (%s), where agents load commands, rules and instructions: set team.dir to a directory of its own, such as %s, and remove any link there", rel, parts[0], filepath.ToSlash(in), TeamDefault)
	}
	return nil
}

// TeamSetting is the team.dir the settings name (or the default),
// cleaned and slash-separated, as messages name it.
func TeamSetting(s *settings.Settings) string {
	rel := s.Get("team.dir")
	if rel == "" {
		rel = TeamDefault
	}
	return filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))
}

// Team opens the project's team memory, or returns nil when the
// workspace is a subagent's memory (which has no team part). With create,
// the directory and its .gitignore (memdir's state never committed) are
// made, as before a write.
func (o *Options) Team(ws *Workspace, create bool) (*Team, error) {
	if ws.Loc.Source == canonical.SourceAgent {
		return nil, nil
	}
	root := ws.WorkTree()
	rel := ws.Settings.Get("team.dir")
	if rel == "" {
		rel = TeamDefault
	}
	dir, err := resolveTeamDir(root, rel)
	if err != nil {
		return nil, err
	}
	if sameDir(dir, ws.Loc.Dir) {
		return nil, usagef("team.dir %q is the personal memory directory too: give team memory a directory of its own, such as %s", rel, TeamDefault)
	}
	// memdir's state inside it (.memdir/) is where the lock and the search
	// index go: one a clone linked out of the directory, or made a file,
	// is refused before anything is read or written.
	if fi, err := atomicfile.StatInside(dir, memdir.StateDir); errors.Is(err, atomicfile.ErrOutside) {
		return nil, teamOutside(rel, root, "keeps its state ("+memdir.StateDir+") through a symbolic link out of the team directory")
	} else if err == nil && !fi.IsDir() {
		return nil, usagef("team memory %s: %s is not a directory; remove it", rel, memdir.StateDir)
	}
	t := &Team{Rel: filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))}
	t.Dir = memdir.Open(dir, memdir.Live, o.storeOptions(ws.Settings)...)
	if create {
		if err := o.MakeTeamDir(ws, t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ExistingTeam opens the team memory for a read: nil when there is none
// in this project yet.
func (o *Options) ExistingTeam(ws *Workspace) (*Team, error) {
	t, err := o.Team(ws, false)
	if err != nil || t == nil || !t.Dir.Exists() {
		return nil, err
	}
	return t, nil
}

// MakeTeamDir creates the team directory inside the work tree (os.Root
// refuses a link swapped in on the way) and writes its .gitignore when it
// has none; with the first .gitignore it registers memdir's merge driver
// for it, when the team.dir setting may (driverTrusted).
func (o *Options) MakeTeamDir(ws *Workspace, t *Team) error {
	root, rel, dir := ws.WorkTree(), t.Rel, t.Dir.Path
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
	if !driverTrusted(ws, rel) {
		o.warnf("team memory %s: git's merge driver not registered: team.dir comes from the project's settings, which you have not trusted (memdir trust, then memdir init, registers it)", rel)
		return nil
	}
	// A new team directory: git merge and git pull merge its indexes by
	// entry, as a sync does (the user's own command registers the driver).
	_, err = memsync.RegisterDriver(context.Background(), dir, root)
	return err
}

// driverTrusted reports whether memdir may register its merge driver for
// the team directory rel: the default one always; another only when
// team.dir comes from the user's own settings or from project settings
// the user trusted (memdir trust), so that a clone's team.dir: docs
// cannot route every docs/*.md of the project to the driver.
func driverTrusted(ws *Workspace, rel string) bool {
	if filepath.Clean(filepath.FromSlash(rel)) == filepath.FromSlash(TeamDefault) {
		return true
	}
	v, ok := ws.Settings.Lookup("team.dir")
	if !ok || v.Origin.Layer != settings.Project {
		return true
	}
	root := ws.WorkTree()
	data, err := untrusted.ReadFile(ws.Settings.File(settings.Project), root, untrusted.MaxSettings)
	return err == nil && settings.IsTrusted(ws.Settings.TrustHome(), root, data)
}

// evalOr is path with its symbolic links resolved, or path as it is.
func evalOr(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// ReadTeam opens the team memory for a read that also shows personal
// memory (context, search, list): nil for a subagent's memory or when
// there is none; a team directory refused as leading out of the project
// is left out with a warning rather than failing the read, so a hostile
// clone cannot stop a session from starting.
func (o *Options) ReadTeam(ws *Workspace) *Team {
	if o.AgentType != "" {
		return nil
	}
	t, err := o.ExistingTeam(ws)
	if err != nil {
		o.warnf("team memory left out: %v", err)
		return nil
	}
	return t
}

// Scope is the memory directory a topic command acts on: the team's with
// team, else the personal one.
func (o *Options) Scope(ws *Workspace, team bool) (*memdir.Dir, error) {
	if !team {
		return ws.Dir, nil
	}
	if o.AgentType != "" {
		return nil, usagef("--team and --agent-type: a subagent's memory has no team part")
	}
	t, err := o.ExistingTeam(ws)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, usagef("no team memory in this project yet: `memdir add --team` creates it")
	}
	return t.Dir, nil
}

// AddTarget is the directory an add writes to: the personal one (claimed
// for the project on first write) or, with team, the team's, created on
// first write.
func (o *Options) AddTarget(ws *Workspace, team bool) (*memdir.Dir, error) {
	if !team {
		return ws.Dir, ws.Claim()
	}
	if o.AgentType != "" {
		return nil, usagef("--team and --agent-type: a subagent's memory has no team part")
	}
	t, err := o.Team(ws, true)
	if err != nil {
		return nil, err
	}
	return t.Dir, nil
}

// FindTopic resolves the topic a person named: in the team memory with
// team, else in the personal memory; with fallback (reads only), a topic
// not found there is looked for in the team memory too. It returns the
// directory the topic is in, its file and whether that is the team's.
func (o *Options) FindTopic(ws *Workspace, ref string, team, fallback bool) (*memdir.Dir, string, bool, error) {
	d, err := o.Scope(ws, team)
	if err != nil {
		return nil, "", false, err
	}
	file, err := d.Find(ref)
	if err == nil || team || !fallback || !errors.Is(err, memdir.ErrNotFound) || o.AgentType != "" {
		return d, file, team, err
	}
	t, terr := o.ExistingTeam(ws)
	if terr != nil || t == nil {
		return d, file, false, err
	}
	if tfile, terr := t.Dir.Find(ref); terr == nil {
		return t.Dir, tfile, true, nil
	}
	return d, file, false, err
}
