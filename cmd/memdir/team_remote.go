package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memsync"
	"github.com/memdir/memdir/settings"
	"github.com/memdir/memdir/untrusted"
)

// A project's settings (even its untrusted .memdir.yaml) may propose
// team.remote, a git remote for team memory. memdir never pushes to or
// pulls from a proposed remote on its own: the user accepts it with
// `memdir remote team accept`, which records the project's identity and
// that exact URL in memdir's home (chosen by the user's own settings,
// never a project's). A changed proposal is a new one.

// teamRemotesFile lists the accepted team remotes in memdir's home, one
// "<project identity>\t<url>" per line.
const teamRemotesFile = "team-remotes"

// teamRemote is the state of a project's team remote.
type teamRemote struct {
	Project  string `json:"project"`            // the project's identity
	Proposed string `json:"proposed,omitempty"` // the team.remote setting
	From     string `json:"from,omitempty"`     // where it is set, file:line
	Accepted bool   `json:"accepted"`           // the user accepted this URL for this project
	home     string
}

func newRemoteTeamCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "team [accept|forget]",
		Short: "Show or accept the team remote the project's settings propose",
		Long: `A project's settings may propose team.remote, a git remote for its team
memory. memdir never pushes to or pulls from it until you accept it here;
the acceptance is recorded in memdir's home (<home>/team-remotes) for this
project and this exact URL, never in the project. See docs/team.md.

memdir remote team forget withdraws your acceptance: syncs stop using
the remote (the team memory here, and the state memdir kept for it,
stay).

Examples:
  memdir remote team
  memdir remote team accept
  memdir remote team forget
  memdir remote team --json`,
		Args: exactArgs(0, "no arguments, or the subcommand accept or forget"),
		RunE: func(*cobra.Command, []string) error { return runRemoteTeamShow(a) },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "accept",
		Short: "Accept the proposed team remote for this project",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runRemoteTeamAccept(a) },
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "forget",
		Short: "Withdraw your acceptance of this project's team remote",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runRemoteTeamForget(a) },
	})
	return cmd
}

func runRemoteTeamForget(a *app) error {
	tr, err := a.teamRemote()
	if err != nil {
		return err
	}
	forgot, err := forgetTeamRemote(tr.home, tr.Project)
	if err != nil {
		return err
	}
	tr.Accepted = false
	if a.json {
		return a.writeJSON(tr)
	}
	if forgot == "" {
		fmt.Fprintf(a.out, "no team remote was accepted for %s\n", tr.Project)
		return nil
	}
	fmt.Fprintf(a.out, "forgot team remote %s for %s: syncs no longer use it\n", forgot, tr.Project)
	return nil
}

func runRemoteTeamShow(a *app) error {
	tr, err := a.teamRemote()
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(tr)
	}
	fmt.Fprintln(a.out, tr.describe())
	return nil
}

func runRemoteTeamAccept(a *app) error {
	tr, err := a.teamRemote()
	if err != nil {
		return err
	}
	if tr.Proposed == "" {
		return usagef("project %s proposes no team remote (team.remote is not set): nothing to accept", tr.Project)
	}
	if err := checkTeamRemote(tr.home, tr.Proposed); err != nil {
		return usagef("team.remote (%s): %v", tr.From, err)
	}
	if !tr.Accepted {
		if err := recordTeamRemote(tr.home, tr.Project, tr.Proposed); err != nil {
			return err
		}
		tr.Accepted = true
	}
	if a.json {
		return a.writeJSON(tr)
	}
	fmt.Fprintf(a.out, "accepted team remote %s for %s (recorded in %s)\n", tr.Proposed, tr.Project, filepath.Join(tr.home, teamRemotesFile))
	return nil
}

// describe says, in one line, what the project proposes and whether the
// user accepted it.
func (tr teamRemote) describe() string {
	switch {
	case tr.Proposed == "":
		return fmt.Sprintf("project %s proposes no team remote", tr.Project)
	case tr.Accepted:
		return fmt.Sprintf("team remote %s (from %s): accepted for %s", tr.Proposed, tr.From, tr.Project)
	}
	return fmt.Sprintf("team remote %s (from %s) is proposed but not accepted: memdir will not use it until you run `memdir remote team accept`", tr.Proposed, tr.From)
}

// teamRemoteNotice is doctor's line about the team remote: "" unless the
// project proposes one the user has not accepted.
func (a *app) teamRemoteNotice() string {
	tr, err := a.teamRemote()
	if err != nil || tr.Proposed == "" || tr.Accepted {
		return ""
	}
	return tr.describe()
}

// teamRemote reads the project's proposed team remote and whether the
// user accepted it.
func (a *app) teamRemote() (teamRemote, error) {
	repo, s, _, err := a.project()
	if err != nil {
		return teamRemote{}, err
	}
	return a.teamRemoteIn(repo, s)
}

// teamRemoteIn is teamRemote for a project already resolved.
func (a *app) teamRemoteIn(repo canonical.Repo, s *settings.Settings) (teamRemote, error) {
	home, err := canonical.Home(a.getenv, s.TrustHome())
	if err != nil {
		return teamRemote{}, err
	}
	id, err := canonical.Identity(repo.Root)
	if err != nil {
		return teamRemote{}, err
	}
	tr := teamRemote{Project: id, home: home}
	v, ok := s.Lookup("team.remote")
	if !ok || v.Value == "" {
		return tr, nil
	}
	tr.Proposed, tr.From = v.Value, origin(v.Origin)
	accepted, err := readTeamRemotes(home)
	tr.Accepted = slices.Contains(accepted, id+"\t"+v.Value)
	return tr, err
}

// origin names where a setting came from, as file:line when a file set it.
func origin(o settings.Origin) string {
	switch {
	case o.File != "" && o.Line > 0:
		return fmt.Sprintf("%s:%d", o.File, o.Line)
	case o.File != "":
		return o.File
	}
	return o.Layer.String()
}

// readTeamRemotes returns the accepted "<identity>\t<url>" lines.
func readTeamRemotes(home string) ([]string, error) {
	data, err := untrusted.ReadFile(filepath.Join(home, teamRemotesFile), "", untrusted.MaxSettings)
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

// recordTeamRemote adds "<identity>\t<url>" to the accepted team remotes,
// replacing an earlier acceptance for the same project.
func recordTeamRemote(home, id, url string) error {
	lines, err := readTeamRemotes(home)
	if err != nil {
		return err
	}
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, id+"\t") })
	return writeTeamRemotes(home, append(lines, id+"\t"+url))
}

// forgetTeamRemote removes the project's acceptance and returns the URL
// it named, "" when there was none.
func forgetTeamRemote(home, id string) (string, error) {
	lines, err := readTeamRemotes(home)
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
	if err := atomicfile.WriteFile(filepath.Join(home, teamRemotesFile), []byte(data), 0o600); err != nil {
		return fmt.Errorf("record team remote: %w", err)
	}
	return nil
}

// checkTeamRemote refuses, beyond what any remote must pass
// (memsync.CheckRemote), a team remote that could carry your own memory
// into the project: a relative path (git resolves it against memdir's
// own repositories), a path inside memdir's home, or your own sync
// remote.
func checkTeamRemote(home, url string) error {
	if err := memsync.CheckRemote(url); err != nil {
		return err
	}
	path, local := localPath(url)
	if !local {
		if own, _ := memsync.Remote(home); own != "" && sameRemote(own, url) {
			return &memsync.RemoteError{URL: url, Reason: "is your own sync remote (memdir remote show): a team remote is shared with the team, so it must be another repository"}
		}
		return nil
	}
	if !filepath.IsAbs(path) {
		return &memsync.RemoteError{URL: url, Reason: "is a relative path; give an ssh, https or git URL, or an absolute path"}
	}
	for _, p := range []string{path, evalOr(path)} {
		for _, h := range []string{home, evalOr(home)} {
			if in, err := filepath.Rel(h, p); err == nil && filepath.IsLocal(in) || p == h {
				return &memsync.RemoteError{URL: url, Reason: "is inside memdir's home (" + home + "), where your own memory is kept"}
			}
		}
	}
	if own, _ := memsync.Remote(home); own != "" {
		if memsync.SameRemote(own, url) {
			return &memsync.RemoteError{URL: url, Reason: "is your own sync remote (memdir remote show): a team remote is shared with the team, so it must be another repository"}
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

// sameRemote reports whether two git URLs name one repository, as a
// project's identity compares them (scheme, user, port and .git aside).
func sameRemote(a, b string) bool {
	return memsync.SameRemote(a, b)
}
