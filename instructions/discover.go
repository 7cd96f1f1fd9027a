package instructions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/typesx"
)

// loader carries one Discover run.
type loader struct {
	p     Profile
	opts  Options
	env   env
	root  string              // canonical project root, symlinks resolved
	top   string              // top of the worktree holding cwd
	cwd   string              // working directory
	files []string            // --file paths, slash-separated, relative to top
	seen  map[string]string   // real path -> path it was loaded as
	dirs  map[string]string   // directory -> its real path
	roots map[string]*os.Root // project directory -> its root, for read
	used  int
	res   Result
}

// Discover finds, in order, every instruction file the profile says applies
// at opts.Cwd, loads those that apply, and explains the others. It fails only
// on bad options; problems with single files are reported in Result.
func Discover(opts Options) (Result, error) {
	l, err := newLoader(opts)
	defer l.close()
	if err != nil || opts.Disabled {
		if opts.Disabled {
			l.res.Notes = append(l.res.Notes, "instruction files are disabled in settings")
		}
		return l.res, err
	}
	if l.p.Agent == AgentAmp {
		l.ampDiscover()
		l.res.Skills = l.skills()
		l.res.Bytes = l.used
		return l.res, nil
	}
	if l.p.Agent == AgentGemini {
		l.geminiDiscover()
		l.res.Skills = l.skills()
		l.res.Bytes = l.used
		return l.res, nil
	}
	l.managedAndUser()
	l.walk()
	if l.p.Agent == AgentClaude {
		l.res.Notes = append(l.res.Notes, largeFileNotes(l.res.Files)...)
	}
	l.res.Skills = l.skills()
	l.res.Bytes = l.used
	return l.res, nil
}

func newLoader(opts Options) (*loader, error) {
	l := &loader{p: opts.Profile, opts: opts, seen: map[string]string{}, dirs: map[string]string{}}
	l.res.Profile = opts.Profile.Name
	if opts.Cwd == "" {
		return l, ErrNoCwd
	}
	e, err := newEnv(opts.Profile, opts, l.realAbs)
	if err != nil {
		return l, err
	}
	l.env = e
	l.cwd = l.realAbs(opts.Cwd)
	l.root = l.cwd
	if opts.Root != "" {
		l.root = l.realAbs(opts.Root)
	}
	switch {
	case opts.WorkTree != "":
		l.top = l.realAbs(opts.WorkTree)
	case within(l.root, l.cwd):
		l.top = findWorkTree(l.cwd, l.root)
	default:
		l.top = l.cwd
		l.res.Notes = append(l.res.Notes, fmt.Sprintf("%s is outside the project %s: only its own directory is searched", l.cwd, l.root))
	}
	if !within(l.top, l.cwd) {
		l.res.Notes = append(l.res.Notes, fmt.Sprintf("%s is outside the project %s: only its own directory is searched", l.cwd, l.top))
		l.top = l.cwd
	}
	for _, f := range opts.Files {
		l.files = append(l.files, l.relFile(f))
	}
	return l, nil
}

// relFile makes a --file path relative to the worktree top (or the root),
// slash-separated, for glob matching.
func (l *loader) relFile(f string) string {
	if !filepath.IsAbs(f) {
		f = filepath.Join(l.cwd, f)
	}
	f = filepath.Clean(f)
	for _, base := range []string{l.top, l.root} {
		if within(base, f) {
			rel, _ := filepath.Rel(base, f)
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(f)
}

func (l *loader) managedAndUser() {
	var managed []string
	for _, p := range l.p.ManagedFiles {
		if x := l.env.expand(p, ""); x != "" {
			managed = append(managed, x)
		}
	}
	l.group(managed, l.env.managed, typesx.ScopeManaged, false)
	l.rulesDirs(l.p.ManagedRulesDirs, "", typesx.ScopeManaged)
	var user []string
	for _, p := range l.p.UserFiles {
		user = append(user, l.env.expand(p, l.env.home))
	}
	l.group(user, l.env.home, typesx.ScopeUser, l.p.UserOneOf)
	l.rulesDirs(l.p.UserRulesDirs, l.env.home, typesx.ScopeUser)
}

// walk visits the project directories: those of the main repository above a
// linked worktree are only listed, the worktree's own from its top to cwd
// are loaded.
func (l *loader) walk() {
	if l.p.Walk == WalkUp {
		l.walkUp()
		return
	}
	var above, dirs []string
	if l.top != l.root && within(l.root, l.top) {
		above = chain(l.root, filepath.Dir(l.top))
		l.res.Notes = append(l.res.Notes, fmt.Sprintf("linked worktree %s lies inside its main repository %s: the main repository's files above it are not loaded", l.top, l.root))
	}
	dirs = chain(l.top, l.cwd)
	if l.p.Walk == WalkRoot {
		dirs = dirs[:1]
		if len(above) > 0 {
			above = above[:1]
		}
	}
	for _, d := range above {
		l.listAbove(d)
	}
	for _, d := range dirs {
		l.group(l.names(d, l.p.ProjectNames), d, typesx.ScopeProject, l.p.OnePerDir)
		l.rulesDirs(l.p.RulesDirs, d, typesx.ScopeProject)
		l.group(l.names(d, l.p.LocalNames), d, typesx.ScopeLocal, false)
	}
}

// walkUp visits, as Claude Code does, every directory from the one below
// the filesystem root down to cwd, the git root being no limit. In a linked
// worktree nested inside its main repository, the main repository's
// project files above the worktree are only listed; local files load.
func (l *loader) walkUp() {
	nested := l.top != l.root && within(l.root, l.top)
	if nested {
		l.res.Notes = append(l.res.Notes, fmt.Sprintf("linked worktree %s lies inside its main repository %s: the main repository's files above it are not loaded", l.top, l.root))
	}
	for _, d := range chain(filepath.VolumeName(l.cwd)+string(filepath.Separator), l.cwd) {
		if filepath.Dir(d) == d {
			continue
		}
		if nested && within(l.root, d) && !within(l.top, d) {
			l.listAbove(d)
			l.group(l.names(d, l.p.LocalNames), d, typesx.ScopeLocal, false)
			continue
		}
		l.group(l.names(d, l.p.ProjectNames), d, typesx.ScopeProject, l.p.OnePerDir)
		l.rulesDirs(l.p.RulesDirs, d, typesx.ScopeProject)
		l.group(l.names(d, l.p.LocalNames), d, typesx.ScopeLocal, false)
	}
}

func (l *loader) names(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = l.env.expand(n, dir)
	}
	return out
}

// listAbove reports the files of a main-repository directory above a linked
// worktree without loading them.
func (l *loader) listAbove(dir string) {
	why := fmt.Sprintf("above linked worktree %s: belongs to the main repository", l.top)
	add := func(paths []string, scope typesx.Scope, kind string) {
		for _, p := range paths {
			if exists(p) {
				l.add(File{Path: p, Scope: scope, Kind: kind, Status: StatusOutsideWorktree, Reason: why})
			}
		}
	}
	add(l.names(dir, l.p.ProjectNames), typesx.ScopeProject, KindInstructions)
	for _, rd := range l.names(dir, l.p.RulesDirs) {
		add(ruleFiles(rd), typesx.ScopeProject, KindRule)
	}
	if l.p.Walk != WalkUp { // Claude Code loads local files there (walkUp)
		add(l.names(dir, l.p.LocalNames), typesx.ScopeLocal, KindInstructions)
	}
}

// group loads the existing instruction files among paths; with onePer only
// the first that is not empty or unreadable loads and the rest are
// shadowed. Reasons name the files relative to base.
func (l *loader) group(paths []string, base string, scope typesx.Scope, onePer bool) {
	winner := ""
	for _, p := range paths {
		if !exists(p) {
			continue
		}
		if onePer && winner != "" {
			l.add(File{Path: p, Scope: scope, Kind: KindInstructions, Status: StatusShadowed,
				Reason: fmt.Sprintf("%s wins: the profile loads one of %s", relName(base, winner), strings.Join(relNames(base, paths), ", "))})
			continue
		}
		st := l.load(File{Path: p, Scope: scope, Kind: KindInstructions}, nil)
		switch {
		case st == StatusEmpty && l.p.Agent == AgentCodex && scope == typesx.ScopeProject:
			winner = p // Codex takes the first file that exists, empty or not
		case st == StatusEmpty, st == StatusUnreadable, st == StatusNotText:
		default:
			winner = p
		}
	}
}

func relName(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && base != "" && within(base, p) {
		return filepath.ToSlash(r)
	}
	return p
}

func relNames(base string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = relName(base, p)
	}
	return out
}

func (l *loader) rulesDirs(dirs []string, base string, scope typesx.Scope) {
	for _, d := range dirs {
		rd := l.env.expand(d, base)
		if rd == "" {
			continue
		}
		for _, f := range ruleFiles(rd) {
			l.load(File{Path: f, Scope: scope, Kind: KindRule}, nil)
		}
	}
}

func (l *loader) add(f File) {
	l.res.Files = append(l.res.Files, f)
}
