// Package memsync shares the user's own memory of every project between
// machines through one git remote the user owns: `memdir remote set` and
// `memdir sync`. Each project's memory lives in the remote in a folder
// named for its identity (canonical.Identity), so the same repository
// cloned at different paths is one memory. Merges lose nothing: indexes
// merge by entry, topics as text, and a real conflict keeps both
// versions. The transport is the user's own git, run only on memdir's own
// repository (<home>/sync/repo) with a fixed configuration: see
// docs/sync.md for the layout and the reasons.
//
// The same sync carries a project's team memory through a team remote
// the user accepted (SyncTeam), with state of its own and only memory
// files (TeamSynced); and MergeFile is the git merge driver that merges
// memory committed with a project the same way (docs/team.md).
package memsync

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/untrusted"
)

// Paths inside the memdir home.
const (
	// Folder holds everything sync keeps: the remote's URL, the
	// repository and the lock.
	Folder = "sync"
	// RemoteFile names the user's sync remote, one line.
	RemoteFile = "sync/remote"
	// RepoDir is memdir's own bare repository.
	RepoDir = Folder + "/" + repoName
)

// repoName is the repository's name inside a sync's state directory.
const repoName = "repo"

var (
	// ErrNoRemote is a sync with no remote set.
	ErrNoRemote = errors.New("no sync remote is set")
)

// RemoteError is a remote URL memdir refuses: the user's input (exit 2).
type RemoteError struct{ URL, Reason string }

func (e *RemoteError) Error() string {
	return fmt.Sprintf("remote %q: %s", e.URL, e.Reason)
}

// UserError marks the URL as the user's input.
func (e *RemoteError) UserError() {}

// helperSyntax is git's <transport>::<address>, which runs a remote
// helper (ext:: runs any command).
var helperSyntax = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*::`)

// CheckRemote refuses a URL git could read as an option or that names a
// remote helper, and one with spaces or control characters.
func CheckRemote(url string) error {
	switch {
	case url == "":
		return &RemoteError{URL: url, Reason: "empty; give a git URL such as git@github.com:me/memory.git"}
	case strings.HasPrefix(url, "-"):
		return &RemoteError{URL: url, Reason: "starts with '-', which git would read as an option"}
	case strings.ContainsFunc(url, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return &RemoteError{URL: url, Reason: "holds a space or a control character"}
	case helperSyntax().MatchString(url):
		return &RemoteError{URL: url, Reason: "names a git remote helper (transport::address); use an ssh, https, git or file URL"}
	}
	return nil
}

// SetRemote records url as the user's sync remote in home.
func SetRemote(home, url string) error {
	if err := CheckRemote(url); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(home, Folder), 0o700); err != nil {
		return fmt.Errorf("set remote: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(home, filepath.FromSlash(RemoteFile)), []byte(url+"\n"), 0o600); err != nil {
		return fmt.Errorf("set remote: %w", err)
	}
	return clearFailure(home)
}

// Remote returns the user's sync remote, or "" when none is set.
func Remote(home string) (string, error) {
	data, err := untrusted.ReadFile(filepath.Join(home, filepath.FromSlash(RemoteFile)), "", untrusted.MaxGit)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read sync remote: %w", err)
	}
	url := strings.TrimSpace(string(data))
	if err := CheckRemote(url); err != nil && url != "" {
		return "", fmt.Errorf("%s: %w", filepath.Join(home, filepath.FromSlash(RemoteFile)), err)
	}
	return url, nil
}

// UnsetRemote forgets the sync remote; it reports whether one was set.
// The repository memdir keeps stays, so a later remote starts from it.
func UnsetRemote(home string) (bool, error) {
	err := os.Remove(filepath.Join(home, filepath.FromSlash(RemoteFile)))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("unset remote: %w", err)
	}
	return true, clearFailure(home)
}

// SameRemote reports whether two git URLs name one repository as git
// resolves them: a local path with or without .git (git tries both),
// file:// or a plain path, symbolic links followed; for a network remote
// the host (its case, a user, a default port and a leading www. aside)
// and the path (its case, a trailing / or .git aside), whether written
// scp-style, ssh:// or https://. It errs towards "same": a team remote it
// takes for the user's own is refused, which costs a rename; one it took
// for another would mix personal memory into the team's.
func SameRemote(a, b string) bool {
	if a == b {
		return true
	}
	ka, okA := remoteKey(a)
	kb, okB := remoteKey(b)
	return okA && okB && ka == kb
}

// remoteKey is what SameRemote compares.
func remoteKey(raw string) (string, bool) {
	id, ok := canonical.NormalizeRemoteURL(raw)
	if !ok {
		return "", false
	}
	if p, local := strings.CutPrefix(id, "file:"); local {
		return "file:" + gitDirOf(p), true
	}
	host, path, _ := strings.Cut(id, "/")
	host = strings.TrimPrefix(host, "www.")
	return host + "/" + strings.ToLower(path), true
}

// gitDirOf is the repository a local path names as git finds it: the
// first of path, path.git and path/.git that is a directory, symbolic
// links resolved; path without .git when none is.
func gitDirOf(path string) string {
	path = strings.TrimSuffix(filepath.Clean(path), string(filepath.Separator))
	for _, p := range []string{path, path + ".git", filepath.Join(path, ".git")} {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				p = r
			}
			return strings.TrimSuffix(strings.TrimSuffix(p, string(filepath.Separator)+".git"), ".git")
		}
	}
	return strings.TrimSuffix(strings.TrimSuffix(path, string(filepath.Separator)+".git"), ".git")
}
