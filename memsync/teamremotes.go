package memsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
)

// A project's settings (even its untrusted .memdir.yaml) may propose
// team.remote, a git remote for team memory. memdir never pushes to or
// pulls from a proposed remote on its own: the user accepts it with
// `memdir remote team accept`, which records the project's identity and
// that exact URL in memdir's home (chosen by the user's own settings,
// never a project's). A changed proposal is a new one.

// TeamRemotesFile lists the accepted team remotes in memdir's home, one
// "<project identity>\t<url>" per line.
const TeamRemotesFile = "team-remotes"

// AcceptedTeamRemotes returns the accepted "<identity>\t<url>" lines.
func AcceptedTeamRemotes(home string) ([]string, error) {
	data, err := untrusted.ReadFile(filepath.Join(home, TeamRemotesFile), "", untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("accepted team remotes: %w", err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, nil
}

// AcceptTeamRemote adds "<identity>\t<url>" to the accepted team remotes,
// replacing an earlier acceptance for the same project.
func AcceptTeamRemote(home, id, url string) error {
	lines, err := AcceptedTeamRemotes(home)
	if err != nil {
		return err
	}
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, id+"\t") })
	return writeTeamRemotes(home, append(lines, id+"\t"+url))
}

// ForgetTeamRemote removes the project's acceptance and returns the URL
// it named, "" when there was none.
func ForgetTeamRemote(home, id string) (string, error) {
	lines, err := AcceptedTeamRemotes(home)
	if err != nil {
		return "", err
	}
	var url string
	lines = slices.DeleteFunc(lines, func(l string) bool {
		u, ok := strings.CutPrefix(l, id+"\t")
		if ok {
			url = u
		}
		return ok
	})
	if url == "" {
		return "", nil
	}
	return url, writeTeamRemotes(home, lines)
}

// writeTeamRemotes writes the accepted "<identity>\t<url>" lines.
func writeTeamRemotes(home string, lines []string) error {
	data := "# team remotes accepted with `memdir remote team accept`: <project identity>\t<url>\n" + strings.Join(lines, "\n") + "\n"
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("record team remote: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(home, TeamRemotesFile), []byte(data), 0o600); err != nil {
		return fmt.Errorf("record team remote: %w", err)
	}
	return nil
}

// CheckTeamRemote refuses, beyond what any remote must pass
// (CheckRemote), a team remote that could carry your own memory
// into the project: a relative path (git resolves it against memdir's
// own repositories), a path inside memdir's home, or your own sync
// remote.
func CheckTeamRemote(home, url string) error {
	if err := CheckRemote(url); err != nil {
		return err
	}
	path, local := localPath(url)
	if !local {
		if own, _ := Remote(home); own != "" && SameRemote(own, url) {
			return &RemoteError{URL: url, Reason: "is your own sync remote (memdir remote show): a team remote is shared with the team, so it must be another repository"}
		}
		return nil
	}
	if !filepath.IsAbs(path) {
		return &RemoteError{URL: url, Reason: "is a relative path; give an ssh, https or git URL, or an absolute path"}
	}
	for _, p := range []string{path, evalOr(path)} {
		for _, h := range []string{home, evalOr(home)} {
			if in, err := filepath.Rel(h, p); err == nil && filepath.IsLocal(in) || p == h {
				return &RemoteError{URL: url, Reason: "is inside memdir's home (" + home + "), where your own memory is kept"}
			}
		}
	}
	if own, _ := Remote(home); own != "" {
		if SameRemote(own, url) {
			return &RemoteError{URL: url, Reason: "is your own sync remote (memdir remote show): a team remote is shared with the team, so it must be another repository"}
		}
	}
	return nil
}

// localPath returns the file system path a git URL names, and whether it
// names one: file://PATH, or a path (git's scp-like host:path is not).
func localPath(url string) (string, bool) {
	if p, ok := strings.CutPrefix(url, "file://"); ok {
		return filepath.Clean(p), true
	}
	if strings.Contains(url, "://") {
		return "", false
	}
	if i := strings.IndexByte(url, ':'); i >= 0 && !strings.ContainsRune(url[:i], '/') {
		return "", false // host:path
	}
	return filepath.Clean(url), true
}

// evalOr is path with its symbolic links resolved, or path as it is.
func evalOr(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
