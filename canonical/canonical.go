// Package canonical works out a project's identity: the canonical root of a
// path (every linked worktree and every subdirectory of one git repository
// gives the same root), the project slug derived from that root, and the
// memory directory that follows from the --dir flag, the environment and the
// settings.
//
// Find reads git's own files (.git, commondir, config) instead of running git
// or opening the repository, so it costs a few stat calls per directory level
// and is cheap enough to run at the start of every command. The GIT_DIR and
// GIT_WORK_TREE environment variables are ignored: identity follows the
// directory, not the shell.
package canonical

import (
	"errors"
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
// A .git directory without HEAD is not a repository (git skips it too).
func probe(dir string) (Repo, bool, error) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return Repo{}, false, nil
	}
	if fi.IsDir() {
		if !exists(filepath.Join(dotgit, "HEAD")) {
			return Repo{}, false, nil
		}
		return Repo{Root: dir, WorkTree: dir, Kind: KindMain}, true, nil
	}
	repo, err := fromGitFile(dir, dotgit)
	if err != nil {
		return Repo{}, false, err
	}
	return repo, true, nil
}

// fromGitFile follows a .git file to its git dir and, for a linked worktree,
// on to the common dir.
func fromGitFile(top, file string) (Repo, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Repo{}, err
	}
	gd, err := parseGitFile(data)
	if err != nil {
		return Repo{}, fmt.Errorf("%s: %w", file, err)
	}
	gitDir, err := resolveFrom(top, gd)
	if err != nil {
		return Repo{}, fmt.Errorf("%s: git dir: %w", file, err)
	}
	common, linked, err := commonDir(gitDir)
	if err != nil {
		return Repo{}, err
	}
	if !linked {
		kind := KindMain
		if isSubmoduleGitDir(gitDir) {
			kind = KindSubmodule
		}
		return Repo{Root: top, WorkTree: top, Kind: kind}, nil
	}
	return Repo{Root: rootOfCommonDir(common, top), WorkTree: top, Kind: KindLinked}, nil
}

// commonDir reads gitDir/commondir. Only linked worktrees have one.
func commonDir(gitDir string) (string, bool, error) {
	name := filepath.Join(gitDir, "commondir")
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	p, err := parsePathFile(data)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", name, err)
	}
	common, err := resolveFrom(gitDir, p)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", name, err)
	}
	return common, true, nil
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
	data, err := os.ReadFile(filepath.Join(common, "config"))
	if err != nil {
		return fallback
	}
	cfg := parseCoreConfig(data)
	if cfg.worktree != "" {
		if wt, err := resolveFrom(common, cfg.worktree); err == nil {
			return wt
		}
	}
	if cfg.bare {
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
