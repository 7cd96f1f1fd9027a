package memsync

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// TestSyncTeamKeepsApart: a team sync carries the team directory it is
// given and nothing else (no personal memory under the home), keeps its
// state apart from the personal sync's, and records neither a root nor
// an identity in the team directory, which lives in the project and
// moves with it.
func TestSyncTeamKeepsApart(t *testing.T) {
	personal, team := bareRemote(t), bareRemote(t)
	a := newMachine(t, "file://"+personal)
	a.add(t, typesx.Reference, "Own dashboards", "Mine: grafana.internal/me.", false)
	teamDir := filepath.Join(a.root, ".memdir", "team")
	if _, err := memdir.Open(teamDir, memdir.Live).Add(memdir.AddRequest{Type: typesx.Reference, Name: "Runbook", Text: "Deploys go through make deploy.", New: true}); err != nil {
		t.Fatal(err)
	}
	teamSync := func(m *machine, dir string) *Result {
		t.Helper()
		res, err := SyncTeam(context.Background(), Options{Home: m.home, LockTimeout: 10 * time.Second,
			Projects: []Project{{Dir: dir, Root: m.root, Identity: "github.com/acme/app"}}}, "file://"+team)
		if err != nil {
			t.Fatalf("team sync: %v", err)
		}
		return res
	}
	res := teamSync(a, teamDir)
	if !res.Pushed || len(res.Projects) != 1 || res.Projects[0].Dir != teamDir {
		t.Fatalf("team sync = %+v, want the team directory alone pushed", res)
	}
	files := run(t, team, "git", "ls-tree", "-r", "--name-only", "main")
	if want := "github.com+acme+app/MEMORY.md\ngithub.com+acme+app/reference_runbook.md\n"; files != want {
		t.Errorf("team remote holds\n%s\nwant\n%s", files, want)
	}
	for _, f := range []string{"root", "identity"} {
		if _, err := os.Stat(filepath.Join(teamDir, memdir.StateDir, f)); err == nil {
			t.Errorf("the team sync recorded .memdir/%s in the team directory", f)
		}
	}
	if _, err := os.Stat(filepath.Join(a.home, RepoDir)); err == nil {
		t.Error("the team sync made the personal sync's repository")
	}
	// The personal sync still starts from nothing and carries only the
	// personal memory.
	a.sync(t)
	files = run(t, personal, "git", "ls-tree", "-r", "--name-only", "main")
	if strings.Contains(files, "runbook") || !strings.Contains(files, "reference_own_dashboards.md") {
		t.Errorf("personal remote holds\n%s\nwant the personal memory alone", files)
	}

	// A teammate's clone at another path gets it, and a change of theirs
	// comes back.
	b := newMachine(t, "file://"+personal)
	bTeam := filepath.Join(b.root, ".memdir", "team")
	if res := teamSync(b, bTeam); res.Pushed || len(res.Projects) != 1 || len(res.Projects[0].Pulled) != 2 {
		t.Fatalf("teammate's first team sync = %+v, want 2 files pulled", res)
	}
	if _, err := memdir.Open(bTeam, memdir.Live).Add(memdir.AddRequest{Type: typesx.Project, Name: "Freeze", Text: "Merge freeze on Thursday.", New: true}); err != nil {
		t.Fatal(err)
	}
	teamSync(b, bTeam)
	teamSync(a, teamDir)
	idx, err := os.ReadFile(filepath.Join(teamDir, memdir.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"reference_runbook.md", "project_freeze.md"} {
		if strings.Count(string(idx), "("+f+")") != 1 {
			t.Errorf("team MEMORY.md lists %s %d times:\n%s", f, strings.Count(string(idx), "("+f+")"), idx)
		}
	}
}

// TestSyncTeamRefusesHelperURL: a team remote naming a git remote helper
// is refused before any git runs.
func TestSyncTeamRefusesHelperURL(t *testing.T) {
	home := t.TempDir()
	_, err := SyncTeam(context.Background(), Options{Home: home}, "ext::sh%20-c%20touch%20/tmp/x")
	var re *RemoteError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "remote helper") {
		t.Fatalf("SyncTeam(ext::) = %v, want a RemoteError", err)
	}
	if _, err := os.Stat(filepath.Join(home, Folder)); err == nil {
		t.Error("a refused team remote left state in the home")
	}
}

// TestSyncNeverRemovesWhatItNeverSaw: a memory directory made again (a
// new clone, rm -rf) or one that never held a file its sync base has
// (its machine synced another project first) removes nothing from the
// remote: the files it lacks are pulled. A file removed from a directory
// that held it still goes.
func TestSyncNeverRemovesWhatItNeverSaw(t *testing.T) {
	bare := bareRemote(t)
	a := newMachine(t, "file://"+bare)
	a.add(t, typesx.Reference, "Dashboards", "Grafana dashboards live at grafana.internal.", false)
	a.add(t, typesx.Feedback, "Style", "Short functions.", false)
	a.sync(t)
	remoteFiles := func() string { return run(t, bare, "git", "ls-tree", "-r", "--name-only", "main") }
	want := remoteFiles()

	// The directory is made again with one new memory.
	if err := os.RemoveAll(a.mem); err != nil {
		t.Fatal(err)
	}
	a.add(t, typesx.Project, "Freeze", "Merge freeze on Thursday.", false)
	a.sync(t)
	got := remoteFiles()
	for _, f := range strings.Fields(want) {
		if !strings.Contains(got, f) {
			t.Errorf("after a sync from a directory made again, the remote lost %s:\n%s", f, got)
		}
	}
	for _, f := range []string{"reference_dashboards.md", "feedback_style.md"} {
		if _, err := os.Stat(filepath.Join(a.mem, f)); err != nil {
			t.Errorf("%s was not pulled back into the directory made again: %v", f, err)
		}
	}

	// A removal made here still travels.
	if err := os.Remove(filepath.Join(a.mem, "feedback_style.md")); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	if got := remoteFiles(); strings.Contains(got, "feedback_style.md") {
		t.Errorf("a topic removed here is still in the remote:\n%s", got)
	}
}

// TestSyncHeldBackStaysOnRemote: a topic this machine holds back (it now
// holds a credential) keeps its last version, and its index line, in the
// remote and on every other machine.
func TestSyncHeldBackStaysOnRemote(t *testing.T) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	file := a.add(t, typesx.Reference, "Deploy runbook", "Deploys go through make deploy.", false)
	a.sync(t)
	b.sync(t)
	simAppend(t, a, file, "aws_access_key_id = AKIAZ7QW4RTY2UIO3PLK")
	res := a.sync(t)
	if len(res.Projects) != 1 || len(res.Projects[0].Skipped) != 1 {
		t.Fatalf("sync = %+v, want the topic held back", res)
	}
	b.sync(t)
	if got := b.read(t, file); strings.Contains(got, "AKIA") || !strings.Contains(got, "make deploy") {
		t.Errorf("the other machine's %s is\n%s\nwant its last pushed version", file, got)
	}
	if ix := b.read(t, memdir.IndexFile); !strings.Contains(ix, "("+file+")") {
		t.Errorf("the other machine's MEMORY.md lost the held-back topic's line:\n%s", ix)
	}
}
