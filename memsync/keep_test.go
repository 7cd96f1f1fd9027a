package memsync

import (
	"bytes"
	"context"
	"encoding/gob"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
	"github.com/memdir/memdir/untrusted"
)

// remoteFile is a file of the project's folder on the remote's main, ""
// when it has none.
func remoteFile(t *testing.T, bare, f string) string {
	t.Helper()
	out, err := gitOutput(bare, "show", "main:github.com+acme+app/"+f)
	if err != nil {
		return ""
	}
	return out
}

func gitOutput(dir string, args ...string) (string, error) {
	cmd := newGit(context.Background(), "").command(args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	return string(out), err
}

func rmTopic(t *testing.T, m *machine, f string) {
	t.Helper()
	if _, err := memdir.Open(m.mem, memdir.Live).RemoveTopic(f); err != nil {
		t.Fatal(err)
	}
}

// TestSyncHeldIndexNeverPushed: a MEMORY.md held back here for a
// credential (Claude Code edits it directly) never reaches the remote,
// even when the merge gives it lines to reconcile.
func TestSyncHeldIndexNeverPushed(t *testing.T) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	a.add(t, typesx.Reference, "Runbook", "Deploys go through make deploy.", false)
	a.sync(t)
	b.sync(t)
	simAppend(t, a, memdir.IndexFile, "token ghp_"+strings.Repeat("aB3x", 9))
	b.add(t, typesx.Feedback, "Style", "Short functions.", false)
	b.sync(t)
	a.sync(t)
	if got := remoteFile(t, bare, memdir.IndexFile); strings.Contains(got, "ghp_") {
		t.Errorf("the remote's MEMORY.md holds the credential:\n%s", got)
	}
}

// TestSyncHeldTopicKeepsItsLine: when a sync reconciles the index, a
// topic held back here keeps the remote's line, on the remote and on
// every other machine.
func TestSyncHeldTopicKeepsItsLine(t *testing.T) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	h := a.add(t, typesx.Reference, "Deploy runbook", "Deploys go through make deploy.", false)
	x := a.add(t, typesx.Feedback, "Style", "Short functions.", false)
	a.sync(t)
	b.sync(t)
	simAppend(t, a, h, "aws_access_key_id = AKIAZ7QW4RTY2UIO3PLK")
	rmTopic(t, a, x)
	simAppend(t, b, x, "Edit by b.")
	b.sync(t)
	a.sync(t)
	if got := remoteFile(t, bare, memdir.IndexFile); !strings.Contains(got, "("+h+")") {
		t.Errorf("the remote's MEMORY.md lost the held-back topic's line:\n%s", got)
	}
	b.sync(t)
	if ix := b.read(t, memdir.IndexFile); !strings.Contains(ix, "("+h+")") {
		t.Errorf("the other machine's MEMORY.md lost %s's line:\n%s", h, ix)
	}
}

// TestSyncAdoptsATokenlessCache: the stat cache a sync of an earlier
// version left (no token) is adopted once for its directory, so a
// removal made since still travels.
func TestSyncAdoptsATokenlessCache(t *testing.T) {
	bare := bareRemote(t)
	a := newMachine(t, "file://"+bare)
	f := a.add(t, typesx.Reference, "Runbook", "Deploys go through make deploy.", false)
	a.add(t, typesx.Feedback, "Style", "Short functions.", false)
	a.sync(t)
	caches, _ := filepath.Glob(filepath.Join(a.home, Folder, cacheDir, "*"))
	if len(caches) != 1 {
		t.Fatalf("caches %q, want one", caches)
	}
	data, err := os.ReadFile(caches[0])
	if err != nil {
		t.Fatal(err)
	}
	var c statCache
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&c); err != nil {
		t.Fatal(err)
	}
	c.Token = ""
	if err := c.save(filepath.Join(a.home, Folder), filepath.Base(caches[0])); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(a.mem, filepath.FromSlash(TokenFile))); err != nil {
		t.Fatal(err)
	}
	rmTopic(t, a, f)
	a.sync(t)
	if remoteFile(t, bare, f) != "" {
		t.Error("a topic removed here is still in the remote")
	}
	if _, err := os.Stat(filepath.Join(a.mem, f)); err == nil {
		t.Error("a topic removed here was pulled back")
	}
}

// TestSyncRemovalOfOversizedFileTravels: a file held back for its size,
// then removed as the warning advises, is removed from the remote too.
func TestSyncRemovalOfOversizedFileTravels(t *testing.T) {
	bare := bareRemote(t)
	a := newMachine(t, "file://"+bare)
	f := a.add(t, typesx.Reference, "Runbook", "Deploys go through make deploy.", false)
	a.sync(t)
	big := append([]byte(a.read(t, f)), bytes.Repeat([]byte("x\n"), untrusted.MaxMemory/2+10)...)
	if err := os.WriteFile(filepath.Join(a.mem, f), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := a.sync(t); len(res.Projects) != 1 || len(res.Projects[0].Skipped) != 1 {
		t.Fatalf("sync = %+v, want the oversized file held back", res.Projects)
	}
	if err := os.Remove(filepath.Join(a.mem, f)); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	if _, err := os.Stat(filepath.Join(a.mem, f)); err == nil {
		t.Error("the removed topic was pulled back")
	}
	if remoteFile(t, bare, f) != "" {
		t.Error("the removed topic is still in the remote")
	}
}

// TestSyncTeamOneCheckoutPerMachine: a second checkout of the project on
// one machine does not sync the same team memory through the same team
// remote (the two would undo each other's removals through the base
// they share): it is skipped, and says from where the memory syncs.
func TestSyncTeamOneCheckoutPerMachine(t *testing.T) {
	bare := bareRemote(t)
	a := newTeamMachine(t, "file://"+bare)
	b := *a
	b.root = a.root + "-wt"
	b.mem = filepath.Join(b.root, ".memdir", "team")
	if err := os.MkdirAll(b.root, 0o755); err != nil {
		t.Fatal(err)
	}
	x := a.add(t, typesx.Reference, "Runbook", "Deploys go through make deploy.", false)
	a.add(t, typesx.Feedback, "Style", "Short functions.", false)
	a.sync(t)
	res := b.sync(t)
	if len(res.Projects) != 1 || len(res.Projects[0].Skipped) != 1 || !strings.Contains(res.Projects[0].Skipped[0].Reason, a.mem) {
		t.Fatalf("second checkout's sync = %+v, want it skipped, naming %s", res.Projects, a.mem)
	}
	rmTopic(t, a, x)
	a.sync(t)
	b.sync(t)
	a.sync(t)
	if remoteFile(t, bare, x) != "" {
		t.Error("a removal made in the first checkout did not stay removed")
	}
	if _, err := os.Stat(filepath.Join(a.mem, x)); err == nil {
		t.Error("a removal made in the first checkout was pulled back")
	}
}

// TestSyncTokenOddFiles: whatever a clone put at the sync token's place
// (a FIFO, a link inside or out, a directory), a sync neither hangs nor
// fails nor writes outside, and replaces it with a token of its own.
func TestSyncTokenOddFiles(t *testing.T) {
	for _, kind := range []string{"fifo", "link-in", "link-out", "dir"} {
		t.Run(kind, func(t *testing.T) {
			a := newMachine(t, "file://"+bareRemote(t))
			a.add(t, typesx.Reference, "Runbook", "Deploys go through make deploy.", false)
			tok := filepath.Join(a.mem, filepath.FromSlash(TokenFile))
			out := filepath.Join(t.TempDir(), "outside")
			if err := os.WriteFile(out, []byte("outside\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			switch kind {
			case "fifo":
				err = syscall.Mkfifo(tok, 0o644)
			case "link-in":
				if err = os.WriteFile(filepath.Join(a.mem, memdir.StateDir, "other"), []byte("0123456789abcdef0123456789abcdef\n"), 0o644); err == nil {
					err = os.Symlink("other", tok)
				}
			case "link-out":
				err = os.Symlink(out, tok)
			case "dir":
				err = os.Mkdir(tok, 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			for range 2 {
				o := Options{Home: a.home, Projects: []Project{{Dir: a.mem, Root: a.root}}, LockTimeout: 10 * time.Second}
				if _, err := Sync(ctx, o); err != nil {
					t.Fatalf("sync: %v", err)
				}
			}
			if data, _ := os.ReadFile(out); string(data) != "outside\n" {
				t.Errorf("the file outside was written: %q", data)
			}
			if fi, err := os.Lstat(tok); err != nil || !fi.Mode().IsRegular() || readToken(a.mem) == "" {
				t.Errorf("the token is %v, %v; want a token of the sync's own", fi, err)
			}
		})
	}
}

// TestSyncMadeAgainKeepsTheRemotesLines: a directory made again does not
// replace the index lines the remote has for topics it never held (a
// person's hand-written hook stays).
func TestSyncMadeAgainKeepsTheRemotesLines(t *testing.T) {
	bare := bareRemote(t)
	a := newMachine(t, "file://"+bare)
	a.add(t, typesx.Reference, "Dashboards", "Grafana dashboards live at grafana.internal.", false)
	ix := strings.Replace(a.read(t, memdir.IndexFile), "Grafana dashboards live at grafana.internal.", "CURATED HOOK: see grafana", 1)
	if err := os.WriteFile(filepath.Join(a.mem, memdir.IndexFile), []byte(ix), 0o644); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	if err := os.RemoveAll(a.mem); err != nil {
		t.Fatal(err)
	}
	a.add(t, typesx.Project, "Freeze", "Merge freeze on Thursday.", false)
	a.sync(t)
	if got := remoteFile(t, bare, memdir.IndexFile); !strings.Contains(got, "CURATED HOOK") || !strings.Contains(got, "(project_freeze.md)") {
		t.Errorf("the remote's MEMORY.md is\n%s\nwant the hand-written line kept and the new topic listed", got)
	}
}

// TestSyncHeldFileMergesOnceLetGo: while a file is held back here, other
// machines go on editing it; once the credential is taken out, the file
// merges from the version it was held from, so both sides' edits stay.
func TestSyncHeldFileMergesOnceLetGo(t *testing.T) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	f := a.add(t, typesx.Reference, "Deploy runbook", "Deploys go through make deploy.", false)
	a.sync(t)
	b.sync(t)
	simAppend(t, a, f, "Edit by a.")
	simAppend(t, a, f, simSecret)
	a.sync(t) // held back here
	simAppend(t, b, f, "Edit by b.")
	b.sync(t)
	a.sync(t) // still held: the base moves on without the file
	simUnpaste(t, a, f)
	a.sync(t)
	b.sync(t)
	// Both appended at the end: a conflict, so one edit may be in the
	// file and the other in its conflict copy; neither is lost.
	for _, m := range []*machine{a, b} {
		var all strings.Builder
		for n, data := range simFiles(t, m) {
			if n == f || copyTopic(n) == f {
				all.WriteString(data)
			}
		}
		if got := all.String(); !strings.Contains(got, "Edit by a.") || !strings.Contains(got, "Edit by b.") || strings.Contains(got, "AKIA") {
			t.Errorf("%s: %s and its conflict copies hold\n%s\nwant both edits and no credential", m.home, f, got)
		}
	}
}

// TestSyncRemovesItsStaleRefLock: a ref lock a killed git left in
// memdir's own sync repository (every git there runs under the sync's
// lock and dies with it) does not stop the next sync.
func TestSyncRemovesItsStaleRefLock(t *testing.T) {
	a := newMachine(t, "file://"+bareRemote(t))
	a.add(t, typesx.Reference, "Runbook", "Deploys go through make deploy.", false)
	a.sync(t)
	lock := filepath.Join(a.home, RepoDir, "refs", "heads", "main.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	a.add(t, typesx.Feedback, "Style", "Short functions.", false)
	if res := a.sync(t); !res.Pushed {
		t.Errorf("sync = %+v, want the new topic pushed", res)
	}
}

// TestSyncCompletesAKilledInit: a sync killed inside git init leaves
// memdir's repository half made with git's config.lock beside it; the
// next sync completes it instead of failing on the lock.
func TestSyncCompletesAKilledInit(t *testing.T) {
	a := newMachine(t, "file://"+bareRemote(t))
	a.add(t, typesx.Reference, "Runbook", "Deploys go through make deploy.", false)
	repo := filepath.Join(a.home, RepoDir)
	if err := os.MkdirAll(repo, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "config.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := a.sync(t); !res.Pushed {
		t.Errorf("sync = %+v, want the topic pushed", res)
	}
}
