package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memsync"
)

// memdirWithTeamRemote runs memdir with `remote team` in its tree (added
// here when remote.go does not add it yet) and returns stdout, stderr and
// the exit status.
func memdirWithTeamRemote(t *testing.T, getenv func(string) string, args ...string) (string, string, int) {
	t.Helper()
	var out, errw bytes.Buffer
	a := &app{in: strings.NewReader(""), out: &out, errw: &errw, getenv: getenv, now: time.Now, wall: time.Now}
	root := newRootCmd(a)
	if c, _, _ := root.Find([]string{"remote", "team"}); c == nil || c.Name() != "team" {
		remote, _, err := root.Find([]string{"remote"})
		if err != nil {
			t.Fatal(err)
		}
		remote.AddCommand(newRemoteTeamCmd(a))
	}
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errw)
	err := root.Execute()
	if err != nil {
		errw.WriteString(err.Error() + "\n")
	}
	return out.String(), errw.String(), exitCode(err)
}

func TestRemoteTeamAccept(t *testing.T) {
	work := t.TempDir()
	proj := filepath.Join(work, "proj")
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	home := filepath.Join(work, "home", ".memdir")
	env := map[string]string{"HOME": filepath.Join(work, "home"), "MEMDIR_HOME": home,
		"MEMDIR_MANAGED_CONFIG": filepath.Join(work, "none.yaml")}
	getenv := func(k string) string { return env[k] }
	propose := func(url string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(proj, ".memdir.yaml"), []byte("team:\n  remote: "+url+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notice := func() string {
		return (&app{getenv: getenv, cwdFlag: proj, out: &bytes.Buffer{}, errw: &bytes.Buffer{}}).teamRemoteNotice()
	}
	const url = "git@github.com:acme/team-memory.git"
	for _, step := range []struct {
		name    string
		propose string // "" keeps the file as it is
		args    []string
		code    int
		out     string // a substring of stdout (or stderr when code != 0)
		notice  bool   // doctor reports a proposed-but-unaccepted remote afterwards
	}{
		{"nothing proposed", "", []string{"remote", "team"}, 0, "proposes no team remote", false},
		{"nothing to accept", "", []string{"remote", "team", "accept"}, 2, "proposes no team remote (team.remote is not set)", false},
		{"proposed", url, []string{"remote", "team"}, 0, "is proposed but not accepted", true},
		{"accept", "", []string{"remote", "team", "accept"}, 0, "accepted team remote " + url, false},
		{"accepted", "", []string{"remote", "team", "--json"}, 0, `"accepted": true`, false},
		{"changed proposal", "git@evil.example:x/y.git", []string{"remote", "team", "--json"}, 0, `"accepted": false`, true},
		{"remote helper refused", "ext::sh", []string{"remote", "team", "accept"}, 2, "remote helper", true},
		{"first URL again", url, []string{"remote", "team", "--json"}, 0, `"accepted": true`, false},
	} {
		t.Run(step.name, func(t *testing.T) {
			if step.propose != "" {
				propose(step.propose)
			}
			out, errw, code := memdirWithTeamRemote(t, getenv, append([]string{"--cwd", proj}, step.args...)...)
			got := out
			if step.code != 0 {
				got = errw
			}
			if code != step.code || !strings.Contains(got, step.out) {
				t.Fatalf("memdir %v: exit %d, stdout %q, stderr %q; want exit %d with %q", step.args, code, out, errw, step.code, step.out)
			}
			if n := notice(); (n != "") != step.notice {
				t.Errorf("doctor notice = %q, want one: %v", n, step.notice)
			}
		})
	}
	data, err := os.ReadFile(filepath.Join(home, memsync.TeamRemotesFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "evil") || strings.Contains(string(data), "ext::") || !strings.Contains(string(data), "\t"+url+"\n") {
		t.Errorf("%s records:\n%s", memsync.TeamRemotesFile, data)
	}
	if fi, err := os.Stat(filepath.Join(home, memsync.TeamRemotesFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v, %v; want 0600", memsync.TeamRemotesFile, fi.Mode(), err)
	}
	var tr teamRemote
	out, _, _ := memdirWithTeamRemote(t, getenv, "--cwd", proj, "remote", "team", "--json")
	if err := json.Unmarshal([]byte(out), &tr); err != nil || !strings.HasPrefix(tr.Project, "path:") || !strings.HasSuffix(tr.From, ".memdir.yaml:2") {
		t.Errorf("remote team --json = %+v, %v", tr, err)
	}
}
