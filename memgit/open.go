package memgit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// memgit opens repositories itself, on go-git's storage layer, rather
// than through go-git's root package: that package pulls in net,
// os/user, TLS, SSH and OpenPGP (for remotes and signing memgit never
// uses), which made the memdir binary dynamically linked and added a
// millisecond of start-up to every command.

// gitDirName is the name of the git dir (or gitdir file) at the top of
// a work tree.
const gitDirName = ".git"

// gitDirs is where a work tree's git data lives.
type gitDirs struct {
	top    string // the top of the work tree, which holds .git
	gitDir string // the work tree's own git dir (index, HEAD, MERGE_HEAD)
	common string // the common dir of a linked worktree (objects, refs), or ""
}

// findGitDirs looks for .git in start and then in each parent, as git
// does, and follows a .git file and a commondir file. It returns
// ErrNoRepo when there is no .git up to the root of the file system.
func findGitDirs(start string) (gitDirs, error) {
	for dir := start; ; {
		_, err := os.Stat(filepath.Join(dir, gitDirName))
		if err == nil {
			return gitDirsAt(dir)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return gitDirs{}, fmt.Errorf("find git dir of %s: %w", start, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return gitDirs{}, ErrNoRepo
		}
		dir = parent
	}
}

// gitDirsAt reads the git dirs of the work tree whose top is top.
func gitDirsAt(top string) (gitDirs, error) {
	gitDir, err := workTreeGitDir(top)
	if err != nil {
		return gitDirs{}, err
	}
	if _, err := os.Stat(gitDir); errors.Is(err, os.ErrNotExist) {
		return gitDirs{}, ErrNoRepo
	}
	d := gitDirs{top: top, gitDir: gitDir}
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return gitDirs{}, fmt.Errorf("read commondir: %w", err)
	}
	c := strings.TrimSpace(string(data))
	if c == "" {
		return d, nil
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	d.common = filepath.Clean(c)
	if _, err := os.Stat(d.common); err != nil {
		return gitDirs{}, fmt.Errorf("common dir %s of %s: %w", d.common, gitDir, err)
	}
	return d, nil
}

// workTreeGitDir is the git dir that holds this work tree's index and
// in-progress state: top/.git, or where a .git file points (a linked
// worktree or a submodule).
func workTreeGitDir(top string) (string, error) {
	dot := filepath.Join(top, gitDirName)
	fi, err := os.Stat(dot)
	if err != nil {
		return "", fmt.Errorf("find git dir of %s: %w", top, err)
	}
	if fi.IsDir() {
		return dot, nil
	}
	data, err := os.ReadFile(dot)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", dot, err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a gitdir file", dot)
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(top, dir)
	}
	return filepath.Clean(dir), nil
}

// storage opens go-git's object and reference storage over the git dirs:
// with a common dir, the per-worktree files (HEAD, index) come from the
// worktree's git dir and the shared ones (objects, refs, config) from the
// common dir, as go-git's EnableDotGitCommonDir does. It returns
// ErrNoRepo when there is no HEAD, and refuses a repository format it
// cannot write safely.
func (d gitDirs) storage() (*filesystem.Storage, error) {
	var fs billy.Filesystem = osfs.New(d.gitDir)
	if d.common != "" {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(d.common))
	}
	st := filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
	if _, err := st.Reference(plumbing.HEAD); errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, ErrNoRepo
	}
	cfg, err := st.Config()
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	if err := checkFormat(cfg); err != nil {
		return nil, err
	}
	return st, nil
}

// extensionsV0 are the extensions git honours without
// core.repositoryformatversion = 1.
var extensionsV0 = map[string]bool{"noop": true, "partialclone": true, "preciousobjects": true, "worktreeconfig": true}

// checkFormat refuses what git and go-git refuse: a repository format
// version other than 0 and 1; and, as go-git does, any extension but noop (an objectformat or
// refstorage one would make memgit's writes corrupt the repository).
func checkFormat(cfg *config.Config) error {
	if cfg.Raw == nil {
		return nil
	}
	v := strings.TrimSpace(cfg.Raw.Section("core").Option("repositoryformatversion"))
	if v != "" && v != "0" && v != "1" {
		return fmt.Errorf("core.repositoryformatversion not supported: %q", v)
	}
	if !cfg.Raw.HasSection("extensions") {
		return nil
	}
	var unsupported, unknown []string
	for _, o := range cfg.Raw.Section("extensions").Options {
		name := strings.ToLower(o.Key)
		if (v == "" || v == "0") && !extensionsV0[name] {
			unsupported = append(unsupported, name)
		}
		if name != "noop" && name != "noop-v1" {
			unknown = append(unknown, name)
		}
	}
	if len(unsupported) > 0 {
		return fmt.Errorf("core.repositoryformatversion does not support extension: %s", strings.Join(unsupported, ", "))
	}
	if len(unknown) > 0 {
		return fmt.Errorf("unknown extension: %s", strings.Join(unknown, ", "))
	}
	return nil
}

// initConfig is the config git init writes for a work tree.
const initConfig = `[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
	logallrefupdates = true
`

// initGitDir makes memDir/.git the skeleton of an empty repository on
// branch main, as git init does. It builds the skeleton in a temporary
// directory beside it and renames it into place, so a crash never
// leaves a half-made .git behind.
func initGitDir(memDir string) error {
	if err := os.MkdirAll(memDir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(memDir, ".memdir-tmp-git-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags", "info"} {
		if err := os.MkdirAll(filepath.Join(tmp, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	for _, f := range []struct{ name, data string }{
		{"config", initConfig},
		{"description", "Unnamed repository; edit this file 'description' to name the repository.\n"},
		{"HEAD", "ref: refs/heads/main\n"},
	} {
		if err := os.WriteFile(filepath.Join(tmp, f.name), []byte(f.data), 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(memDir, gitDirName))
}
