package canonical

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/memdir/memdir/untrusted"
)

// GitDirs is where the git data of one working tree lives. canonical is
// the one place that finds it: Find derives a project's identity from
// it, and memgit opens the repository with it.
type GitDirs struct {
	// Top is the top of the working tree, the directory that holds .git.
	Top string
	// GitDir is the working tree's own git dir: its index, HEAD and the
	// state of a merge or rebase in progress.
	GitDir string
	// CommonDir is the git dir every worktree of the repository shares:
	// objects, refs and config. It is GitDir unless the working tree is a
	// linked worktree.
	CommonDir string

	gitFile bool // .git is a file that points to GitDir
	linked  bool // GitDir has a commondir file
}

// FindGitDirs returns the git dirs of the working tree that holds path,
// looking for .git in path and then in each parent as git does, and
// following a .git file and a commondir file. The path should be
// absolute with its symlinks resolved; it need not exist. found is false
// when there is no working tree up to the root of the file system; a
// .git directory without HEAD is not one (git skips it too).
func FindGitDirs(path string) (d GitDirs, found bool, err error) {
	for dir := filepath.Clean(path); ; {
		d, found, err := gitDirsAt(dir)
		if err != nil {
			return GitDirs{}, false, fmt.Errorf("find git dir of %s: %w", path, err)
		}
		if found {
			return d, true, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return GitDirs{}, false, nil
		}
		dir = parent
	}
}

// gitDirsAt reads the git dirs of the working tree whose top would be
// top, if top holds a .git.
func gitDirsAt(top string) (GitDirs, bool, error) {
	dotgit := filepath.Join(top, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return GitDirs{}, false, nil
	}
	d := GitDirs{Top: top, GitDir: dotgit}
	if fi.IsDir() {
		if !exists(filepath.Join(dotgit, "HEAD")) {
			return GitDirs{}, false, nil
		}
	} else {
		data, err := untrusted.ReadFile(dotgit, "", untrusted.MaxGit)
		if err != nil {
			return GitDirs{}, false, err
		}
		gd, err := parseGitFile(data)
		if err != nil {
			return GitDirs{}, false, fmt.Errorf("%s: %w", dotgit, err)
		}
		if d.GitDir, err = resolveFrom(top, gd); err != nil {
			return GitDirs{}, false, fmt.Errorf("%s: git dir: %w", dotgit, err)
		}
		d.gitFile = true
	}
	common, linked, err := commonDir(d.GitDir)
	if err != nil {
		return GitDirs{}, false, err
	}
	d.CommonDir, d.linked = d.GitDir, linked
	if linked {
		d.CommonDir = common
	}
	return d, true, nil
}

// commonDir reads gitDir/commondir. Only linked worktrees have one.
func commonDir(gitDir string) (string, bool, error) {
	name := filepath.Join(gitDir, "commondir")
	data, err := untrusted.ReadFile(name, "", untrusted.MaxGit)
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

const gitdirPrefix = "gitdir: "

// parseGitFile reads the path out of a .git file ("gitdir: <path>\n") the way
// git does: the prefix is exact and only trailing CR and LF are trimmed.
func parseGitFile(data []byte) (string, error) {
	s := string(data)
	if !strings.HasPrefix(s, gitdirPrefix) {
		return "", ErrBadGitFile
	}
	return parsePathFile([]byte(s[len(gitdirPrefix):]))
}

// parsePathFile reads a one-line path file such as commondir, trimming
// only trailing CR and LF as git does.
func parsePathFile(data []byte) (string, error) {
	p := strings.TrimRight(string(data), "\r\n")
	if p == "" || strings.ContainsAny(p, "\x00\r\n") {
		return "", ErrBadGitFile
	}
	return p, nil
}

// GitConfig is a repository's git config, decoded by go-git's config
// decoder (github.com/go-git/go-git/v5/plumbing/format/config, which the
// memdir binary links anyway, so reading config adds no start-up cost).
type GitConfig struct {
	// Raw is the decoded config, every file read in order, so that for a
	// key set twice the last value wins, as in git.
	Raw *format.Config
}

// Config reads the repository's config: the common dir's config and,
// when extensions.worktreeConfig is on, this working tree's
// config.worktree over it, as git does. A missing file is empty; a file
// git's syntax rejects is an error.
func (d GitDirs) Config() (GitConfig, error) {
	cfg := GitConfig{Raw: format.New()}
	if err := cfg.decodeFile(filepath.Join(d.CommonDir, "config")); err != nil {
		return GitConfig{}, err
	}
	if cfg.Bool("extensions", "worktreeconfig", false) {
		if err := cfg.decodeFile(filepath.Join(d.GitDir, "config.worktree")); err != nil {
			return GitConfig{}, err
		}
	}
	return cfg, nil
}

// decodeFile adds a config file's settings to cfg.
func (c GitConfig) decodeFile(name string) error {
	data, err := untrusted.ReadFile(name, "", untrusted.MaxSettings)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read git config: %w", err)
	}
	return c.decode(name, data)
}

// decode adds the settings of config text to c. gcfg, under go-git's
// decoder, panics on a few malformed escapes instead of failing; that is
// an error here.
func (c GitConfig) decode(name string, data []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: bad git config: %v", name, p)
		}
	}()
	if err := format.NewDecoder(bytes.NewReader(data)).Decode(c.Raw); err != nil {
		return fmt.Errorf("%s: bad git config: %w", name, err)
	}
	return nil
}

// Has reports whether section.key (section without a subsection) is set.
func (c GitConfig) Has(section, key string) bool {
	return c.Raw != nil && c.Raw.HasSection(section) && c.Raw.Section(section).HasOption(key)
}

// Value is the last value of section.key, or "" when it is not set.
func (c GitConfig) Value(section, key string) string {
	if !c.Has(section, key) {
		return ""
	}
	return c.Raw.Section(section).Option(key)
}

// Bool reads section.key as git reads a boolean: true, yes, on or a
// number other than 0 are true, and a key with no value (which go-git's
// decoder cannot tell from an empty one) is true; def when it is unset.
func (c GitConfig) Bool(section, key string, def bool) bool {
	if !c.Has(section, key) {
		return def
	}
	switch v := strings.ToLower(strings.TrimSpace(c.Value(section, key))); v {
	case "", "true", "yes", "on":
		return true
	case "false", "no", "off":
		return false
	default:
		n, err := strconv.Atoi(v)
		return err == nil && n != 0
	}
}
