package memsync

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// refuse installs a pre-receive hook in the bare remote that rejects
// every push (a read-only remote), or removes it.
func refuse(t *testing.T, bare string, on bool) {
	t.Helper()
	hookRemote(t, bare, on, "echo read-only >&2\nexit 1\n")
}

// hookRemote installs (or removes) a pre-receive hook running script.
func hookRemote(t *testing.T, bare string, on bool, script string) {
	t.Helper()
	hook := filepath.Join(bare, "hooks", "pre-receive")
	if !on {
		os.Remove(hook)
		return
	}
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// trySync is a sync whose failure is returned.
func (m *machine) trySync() (*Result, error) {
	o := Options{Home: m.home, Projects: []Project{{Dir: m.mem, Root: m.root}}, LockTimeout: 10 * time.Second}
	if m.team != "" {
		o.Projects[0].Identity = teamIdentity
		return SyncTeam(context.Background(), o, m.team)
	}
	return Sync(context.Background(), o)
}

// TestSyncRefusedPushWritesNothing: four refused pushes leave machine B's
// memory exactly as it was, and once the remote accepts again, both
// machines hold both machines' lines in the topic, with no conflict copy.
// A push whose connection drops (the remote's receive-pack killed in
// the middle) is the same.
func TestSyncRefusedPushWritesNothing(t *testing.T) {
	for name, script := range map[string]string{
		"refused": "echo read-only >&2\nexit 1\n",
		"dropped": "kill -9 $PPID\nexit 1\n",
	} {
		t.Run(name, func(t *testing.T) { testRefusedPush(t, script) })
	}
}

func testRefusedPush(t *testing.T, script string) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	f := a.add(t, typesx.Feedback, "Use pnpm", "Use pnpm, not npm.", false)
	a.sync(t)
	b.sync(t)
	simAppend(t, a, f, "A: lockfile committed.")
	a.sync(t)
	simAppend(t, b, f, "B: corepack pins it.")
	before := simFiles(t, b)
	hookRemote(t, bare, true, script)
	for i := 0; i < 4; i++ {
		if _, err := b.trySync(); err == nil {
			t.Fatal("a push the remote refused counted as a sync")
		}
		if got := simFiles(t, b); !sameFiles(got, before) {
			t.Fatalf("refused push %d wrote into memory:\n%v\nwas\n%v", i+1, got, before)
		}
	}
	refuse(t, bare, false)
	b.sync(t)
	a.sync(t)
	for _, m := range []*machine{a, b} {
		got := m.read(t, f)
		for _, line := range []string{"Use pnpm, not npm.", "A: lockfile committed.", "B: corepack pins it."} {
			if strings.Count(got, "\n"+line+"\n") != 1 {
				t.Errorf("%s: %q appears %d times in\n%s", m.home, line, strings.Count(got, line), got)
			}
		}
		if copies, _ := filepath.Glob(filepath.Join(m.mem, "*.conflict-*")); len(copies) > 0 {
			t.Errorf("%s: conflict copies %v", m.home, copies)
		}
	}
}

// TestSyncBothAddOneMemory: "Use pnpm" added on two machines, then
// synced: one topic, both lines once, no conflict copy.
func TestSyncBothAddOneMemory(t *testing.T) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	fa := a.add(t, typesx.Feedback, "Use pnpm", "Use pnpm, not npm.", false)
	fb := b.add(t, typesx.Feedback, "Use pnpm", "Use pnpm, not npm.", false)
	if fa != fb {
		t.Fatalf("two files: %s, %s", fa, fb)
	}
	a.sync(t)
	res := b.sync(t)
	a.sync(t)
	if len(res.Projects[0].Conflicts) > 0 {
		t.Fatalf("conflicts: %v", res.Projects[0].Conflicts)
	}
	for _, m := range []*machine{a, b} {
		if got := m.read(t, fa); strings.Count(got, "\nUse pnpm, not npm.\n") != 1 {
			t.Errorf("%s: %s =\n%s", m.home, fa, got)
		}
		if copies, _ := filepath.Glob(filepath.Join(m.mem, "*.conflict-*")); len(copies) > 0 {
			t.Errorf("%s: conflict copies %v", m.home, copies)
		}
	}
}

// hostilePush commits files into the project's folder of the bare remote
// directly, as a remote (or a teammate) memdir does not control can.
func hostilePush(t *testing.T, bare string, files map[string]string) {
	t.Helper()
	work := filepath.Join(t.TempDir(), "hostile")
	run(t, filepath.Dir(work), "git", "clone", "-q", bare, work)
	dir := filepath.Join(work, ProjectFolder(teamIdentity))
	os.MkdirAll(dir, 0o755)
	for n, text := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, work, "git", "add", "-A")
	run(t, work, "git", "-c", "user.name=h", "-c", "user.email=h@example.com", "commit", "-q", "-m", "hostile")
	run(t, work, "git", "push", "-q", "origin", "HEAD:main")
}

func hostileTopic(name, body string) string {
	return "---\nname: " + name + "\ndescription: planted\ntype: reference\n---\n\n" + body + "\n"
}

// TestSyncHoldsIncomingCredentials: a remote carrying a GitHub token, an
// AWS key pair and an OpenSSH private key gets none of them into memory;
// each is named on the result and recorded until the remote's version is
// clean.
func TestSyncHoldsIncomingCredentials(t *testing.T) {
	bare := bareRemote(t)
	a := newMachine(t, "file://"+bare)
	a.add(t, typesx.User, "Role", "A data scientist.", false)
	a.sync(t)
	key := base64.StdEncoding.EncodeToString(append([]byte("openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none"), strings.Repeat("k3Y9", 80)...))
	planted := map[string]string{
		"reference_gh.md":  hostileTopic("GH", "token ghp_0123456789abcdefghijABCDEFGHIJ0123456789"),
		"reference_aws.md": hostileTopic("AWS", "aws_access_key_id = AKIAZ7QW4RTY2UIO3PLK\naws_secret_access_key = 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"),
		"reference_ssh.md": hostileTopic("SSH", "-----BEGIN OPENSSH PRIVATE KEY-----\n"+key+"\n-----END OPENSSH PRIVATE KEY-----"),
		"reference_ok.md":  hostileTopic("OK", "Nothing secret."),
	}
	hostilePush(t, bare, planted)
	res := a.sync(t)
	held := map[string]bool{}
	for _, h := range res.Projects[0].Held {
		held[h.File] = true
		if !strings.Contains(h.Message(), h.File+" from file://"+bare) {
			t.Errorf("message %q names neither remote nor file", h.Message())
		}
	}
	for n := range planted {
		_, err := os.Stat(filepath.Join(a.mem, n))
		if n == "reference_ok.md" {
			if err != nil || held[n] {
				t.Errorf("%s: the clean file was not written", n)
			}
			continue
		}
		if err == nil || !held[n] {
			t.Errorf("%s: written into memory (held %v)", n, held[n])
		}
	}
	if got := len(HeldIncoming(a.mem)); got != 3 {
		t.Errorf("recorded %d held files, want 3", got)
	}
	again := a.sync(t)
	if got := len(HeldIncoming(a.mem)); got != 3 {
		t.Errorf("a second sync recorded %d held files, want 3: %+v", got, again)
	}
	hostilePush(t, bare, map[string]string{"reference_gh.md": hostileTopic("GH", "token removed")})
	a.sync(t)
	if got := a.read(t, "reference_gh.md"); !strings.Contains(got, "token removed") {
		t.Errorf("the cleaned file did not come: %q", got)
	}
	if got := len(HeldIncoming(a.mem)); got != 2 {
		t.Errorf("after the remote cleaned one file, %d held, want 2", got)
	}
	// Resolved as mine: this machine has no such file, so the remote's
	// goes at the next sync, and nothing is held any more for it.
	if _, err := Resolve(memdir.Open(a.mem, memdir.Live), "reference_aws.md", KeepMine); err != nil {
		t.Fatal(err)
	}
	if got := len(Unresolved(a.mem)); got != 1 {
		t.Errorf("after resolve, %d unresolved, want 1", got)
	}
	a.sync(t)
	if got := remoteFile(t, bare, "reference_aws.md"); got != "" {
		t.Errorf("the remote still holds the resolved file: %q", got)
	}
	if got := len(HeldIncoming(a.mem)); got != 1 {
		t.Errorf("after the sync, %d held, want 1: %+v", got, HeldIncoming(a.mem))
	}
	// Resolved as mine, but a teammate rewrote the file on the remote
	// before this machine synced: "mine" was about the version held, so
	// the teammate's new one is not overwritten, and it comes in.
	if _, err := Resolve(memdir.Open(a.mem, memdir.Live), "reference_ssh.md", KeepMine); err != nil {
		t.Fatal(err)
	}
	hostilePush(t, bare, map[string]string{"reference_ssh.md": hostileTopic("SSH", "key rotated, see the vault")})
	a.sync(t)
	if got := remoteFile(t, bare, "reference_ssh.md"); !strings.Contains(got, "key rotated") {
		t.Errorf("keep mine overwrote a version it never held: the remote has %q", got)
	}
	if got := a.read(t, "reference_ssh.md"); !strings.Contains(got, "key rotated") {
		t.Errorf("the teammate's new version did not come: %q", got)
	}
}

// TestSyncKilledAnywhereLosesNothing SIGKILLs machine A's sync at points
// spread over its run (fault injection, not a wait), each time after both
// machines appended a line to one topic; after full syncs every line is
// in the topic once on both machines and no conflict copy was made.
func TestSyncKilledAnywhereLosesNothing(t *testing.T) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	f := a.add(t, typesx.Feedback, "Use pnpm", "Use pnpm, not npm.", false)
	a.sync(t)
	b.sync(t)
	var want []string
	killed := 0
	for i := 0; i < 12; i++ {
		la, lb := fmt.Sprintf("A line %d.", i), fmt.Sprintf("B line %d.", i)
		simAppend(t, a, f, la)
		simAppend(t, b, f, lb)
		want = append(want, la, lb)
		b.sync(t)
		if simKilledSync(t, a, time.Duration(i*100)*time.Millisecond) {
			killed++
		}
	}
	a.sync(t)
	b.sync(t)
	a.sync(t)
	t.Logf("%d of 12 syncs killed", killed)
	for _, m := range []*machine{a, b} {
		got := m.read(t, f)
		for _, l := range want {
			if n := strings.Count(got, "\n"+l+"\n"); n != 1 {
				t.Errorf("%s: %q is in the topic %d times:\n%s", m.home, l, n, got)
			}
		}
		if copies, _ := filepath.Glob(filepath.Join(m.mem, "*.conflict-*")); len(copies) > 0 {
			t.Errorf("%s: conflict copies %v", m.home, copies)
		}
	}
}
