// Package canonical works out a project's identity: the canonical root of a
// path (every linked worktree and every subdirectory of one git repository
// gives the same root), the project slug derived from that root, and the
// memory directory that follows from the --dir flag, the environment and the
// settings.
//
// canonical is also the one place that finds a working tree's git dirs
// (FindGitDirs: the .git directory or file, the commondir of a linked
// worktree) and reads a repository's config (GitDirs.Config, with
// go-git's config decoder); memgit opens repositories through it.
//
// Find reads git's own files (.git, commondir, config) instead of running git
// or opening the repository, so it costs a few stat calls per directory level
// and is cheap enough to run at the start of every command. The GIT_DIR and
// GIT_WORK_TREE environment variables are ignored: identity follows the
// directory, not the shell.
package canonical

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Kinds a Repo can have.
const (
	KindNone      = "none"      // not inside a git working tree
	KindMain      = "main"      // the main worktree (a .git directory, or a .git file of a separate git dir)
	KindLinked    = "linked"    // a worktree made by `git worktree add`
	KindSubmodule = "submodule" // a submodule's working tree
)

// Repo describes where a path sits relative to git.
type Repo struct {
	// Root is the canonical project root: for a linked worktree the main
	// worktree's root, found through git's common dir; outside git the
	// directory itself. Symlinks are resolved.
	Root string
	// WorkTree is the top of the working tree that contains the path (a
	// linked worktree's own top); outside git it equals Root.
	WorkTree string
	// Kind is one of KindNone, KindMain, KindLinked and KindSubmodule.
	Kind string
}

// Find returns the Repo that contains path. The path may be a file or a
// directory, relative or absolute, and may go through symlinks; it must
// exist. A bare repository counts as outside git.
func Find(path string) (Repo, error) {
	start, err := resolveStart(path)
	if err != nil {
		return Repo{}, err
	}
	for dir := start; ; {
		repo, found, err := probe(dir)
		if err != nil {
			return Repo{}, fmt.Errorf("find project root of %s: %w", path, err)
		}
		if found {
			return repo, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return Repo{Root: start, WorkTree: start, Kind: KindNone}, nil
}

// Root returns the canonical project root of path: Find(path).Root.
func Root(path string) (string, error) {
	repo, err := Find(path)
	if err != nil {
		return "", err
	}
	return repo.Root, nil
}

// resolveStart makes path absolute, resolves its symlinks and, for a file,
// returns its directory.
func resolveStart(path string) (string, error) {
	if path == "" {
		path = "."
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("find project root of %s: %w", path, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("find project root of %s: %w", path, err)
	}
	fi, err := os.Stat(resolved)
	if err != nil {
		return "", fmt.Errorf("find project root of %s: %w", path, err)
	}
	if !fi.IsDir() {
		resolved = filepath.Dir(resolved)
	}
	return resolved, nil
}

// probe reports whether dir is the top of a working tree and, if so, which.
func probe(dir string) (Repo, bool, error) {
	d, found, err := gitDirsAt(dir)
	if err != nil || !found {
		return Repo{}, false, err
	}
	return d.repo(), true, nil
}

// repo says which kind of working tree d is the git data of and which
// root it belongs to.
func (d GitDirs) repo() Repo {
	switch {
	case !d.gitFile:
		return Repo{Root: d.Top, WorkTree: d.Top, Kind: KindMain}
	case d.linked:
		return Repo{Root: rootOfCommonDir(d.CommonDir, d.Top), WorkTree: d.Top, Kind: KindLinked}
	case isSubmoduleGitDir(d.GitDir):
		return Repo{Root: d.Top, WorkTree: d.Top, Kind: KindSubmodule}
	}
	return Repo{Root: d.Top, WorkTree: d.Top, Kind: KindMain}
}

// rootOfCommonDir names the main worktree of a common dir. The usual common
// dir is <root>/.git. A submodule's lives under the superproject's
// .git/modules/ and names its worktree in core.worktree. A bare repository
// has no main worktree, so the bare directory itself is the root that all
// its worktrees share. Anything else falls back to the linked worktree.
func rootOfCommonDir(common, fallback string) string {
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common)
	}
	cfg, err := GitDirs{GitDir: common, CommonDir: common}.Config()
	if err != nil {
		return fallback
	}
	if wt := cfg.Value("core", "worktree"); wt != "" {
		if wt, err := resolveFrom(common, wt); err == nil {
			return wt
		}
	}
	if cfg.Bool("core", "bare", false) {
		return common
	}
	return fallback
}

// isSubmoduleGitDir reports whether gitDir is kept inside a superproject's
// .git/modules/, where git absorbs submodule git dirs.
func isSubmoduleGitDir(gitDir string) bool {
	return strings.Contains(filepath.ToSlash(gitDir), "/.git/modules/")
}

// resolveFrom joins a relative p to base and resolves symlinks.
func resolveFrom(base, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.EvalSymlinks(p)
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
