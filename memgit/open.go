package memgit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/memdir/memdir/canonical"
)

// memgit opens repositories itself, on go-git's storage layer, rather
// than through go-git's root package: that package pulls in net,
// os/user, TLS, SSH and OpenPGP (for remotes and signing memgit never
// uses), which made the memdir binary dynamically linked and added a
// millisecond of start-up to every command.

// gitDirName is the name of the git dir (or gitdir file) at the top of
// a work tree.
const gitDirName = ".git"

// openStorage opens go-git's object and reference storage over the git
// dirs canonical found: with a common dir, the per-worktree files (HEAD,
// index) come from the worktree's git dir and the shared ones (objects,
// refs, config) from the common dir, as go-git's EnableDotGitCommonDir
// does. It returns ErrNoRepo when there is no HEAD, and refuses a
// repository format it cannot write safely.
func openStorage(d canonical.GitDirs) (*filesystem.Storage, error) {
	var fs billy.Filesystem = osfs.New(d.GitDir)
	if d.CommonDir != d.GitDir {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(d.CommonDir))
	}
	st := filesystem.NewStorage(tempNamer{fs}, cache.NewObjectLRUDefault())
	if _, err := st.Reference(plumbing.HEAD); errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, ErrNoRepo
	}
	cfg, err := d.Config()
	if err != nil {
		return nil, err
	}
	if err := checkFormat(cfg); err != nil {
		return nil, err
	}
	return st, nil
}

// config reads the repository's config (and config.worktree, under
// extensions.worktreeConfig) afresh.
func (r *Repo) config() canonical.GitConfig {
	cfg, err := r.dirs.Config()
	if err != nil {
		return canonical.GitConfig{}
	}
	return cfg
}

// extensionsV0 are the extensions git honours without
// core.repositoryformatversion = 1.
var extensionsV0 = map[string]bool{"noop": true, "partialclone": true, "preciousobjects": true, "worktreeconfig": true}

// extensionsKnown are the extensions memgit writes correctly under:
// worktreeConfig only moves settings into config.worktree, which
// canonical's Config reads. Any other (objectFormat, refStorage...) would
// make memgit's writes corrupt the repository.
var extensionsKnown = map[string]bool{"noop": true, "noop-v1": true, "worktreeconfig": true}

// checkFormat refuses what git refuses, a repository format version
// other than 0 and 1, and any extension memgit does not know.
func checkFormat(cfg canonical.GitConfig) error {
	v := strings.TrimSpace(cfg.Value("core", "repositoryformatversion"))
	if v != "" && v != "0" && v != "1" {
		return fmt.Errorf("core.repositoryformatversion not supported: %q", v)
	}
	if cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return nil
	}
	var unsupported, unknown []string
	for _, o := range cfg.Raw.Section("extensions").Options {
		name := strings.ToLower(o.Key)
		if (v == "" || v == "0") && !extensionsV0[name] {
			unsupported = append(unsupported, name)
		}
		if !extensionsKnown[name] {
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
