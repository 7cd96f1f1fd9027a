package memsync

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

func TestSyncConflictKeepsBoth(t *testing.T) {
	u := "file://" + bareRemote(t)
	a, b := newMachine(t, u), newMachine(t, u)
	file := a.add(t, typesx.Project, "Release", "The freeze starts Thursday.", false)
	a.sync(t)
	b.sync(t)
	edit := func(m *machine, with string) {
		t.Helper()
		text := strings.Replace(m.read(t, file), "The freeze starts Thursday.", with, 1)
		if err := os.WriteFile(filepath.Join(m.mem, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(a, "The freeze starts Friday.")
	edit(b, "The freeze is cancelled.")
	a.sync(t)
	res := b.sync(t)
	if c := res.Projects[0].Conflicts; len(c) != 1 || !strings.HasPrefix(c[0], "project_release.conflict-") {
		t.Fatalf("B's conflicts = %v", c)
	}
	a.sync(t)
	for _, m := range []*machine{a, b} {
		var all strings.Builder
		ents, _ := os.ReadDir(m.mem)
		for _, e := range ents {
			if e.Type().IsRegular() {
				all.WriteString(m.read(t, e.Name()))
			}
		}
		for _, want := range []string{"The freeze starts Friday.", "The freeze is cancelled."} {
			if !strings.Contains(all.String(), want) {
				t.Errorf("%s lost %q", m.home, want)
			}
		}
		if strings.Contains(all.String(), "<<<<<<<") || strings.Contains(all.String(), ">>>>>>>") {
			t.Errorf("%s holds conflict markers", m.home)
		}
		if got := m.read(t, file); !strings.Contains(got, "The freeze is cancelled.") {
			t.Errorf("%s: %s = %q, want B's version (the last to push) in the file", m.home, file, got)
		}
	}
}

func TestSyncCleanTextMerge(t *testing.T) {
	u := "file://" + bareRemote(t)
	a, b := newMachine(t, u), newMachine(t, u)
	file := a.add(t, typesx.Reference, "Links", "Dashboard: grafana.\n\nmiddle\n\nRunbook: wiki.", false)
	a.sync(t)
	b.sync(t)
	for _, e := range []struct {
		m        *machine
		old, new string
	}{{a, "Dashboard: grafana.", "Dashboard: grafana/ops."}, {b, "Runbook: wiki.", "Runbook: wiki/oncall."}} {
		text := strings.Replace(e.m.read(t, file), e.old, e.new, 1)
		if err := os.WriteFile(filepath.Join(e.m.mem, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a.sync(t)
	if res := b.sync(t); len(res.Projects[0].Conflicts) != 0 {
		t.Fatalf("conflicts = %v", res.Projects[0].Conflicts)
	}
	a.sync(t)
	for _, m := range []*machine{a, b} {
		got := m.read(t, file)
		if !strings.Contains(got, "grafana/ops.") || !strings.Contains(got, "wiki/oncall.") {
			t.Errorf("%s: %s = %q, want both edits", m.home, file, got)
		}
	}
}

func TestSyncRemovalTravels(t *testing.T) {
	u := "file://" + bareRemote(t)
	a, b := newMachine(t, u), newMachine(t, u)
	keep := a.add(t, typesx.User, "Role", "A data scientist.", false)
	gone := a.add(t, typesx.Project, "Freeze", "Merge freeze Thursday.", false)
	a.sync(t)
	b.sync(t)
	if _, err := memdir.Open(a.mem, memdir.Live).RemoveTopic(gone); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	b.sync(t)
	if _, err := os.Stat(filepath.Join(b.mem, gone)); !os.IsNotExist(err) {
		t.Errorf("B still has %s (%v)", gone, err)
	}
	ix := b.read(t, "MEMORY.md")
	if strings.Contains(ix, gone) || !strings.Contains(ix, keep) {
		t.Errorf("B's MEMORY.md:\n%s", ix)
	}
}

func TestSyncNeverPushesPrivateOrSecret(t *testing.T) {
	bare := bareRemote(t)
	a := newMachine(t, "file://"+bare)
	a.add(t, typesx.User, "Role", "A data scientist.", false)
	priv := a.add(t, typesx.User, "Health", "Private-note-7731 about a doctor visit.", true)
	token := "ghp_" + strings.Repeat("aB3x", 9)
	sec := a.add(t, typesx.Reference, "Deploy key", "The deploy token is "+token, false)
	before := a.read(t, "MEMORY.md")
	res := a.sync(t)
	var skipped []string
	for _, s := range res.Projects[0].Skipped {
		skipped = append(skipped, s.File)
	}
	if len(skipped) != 1 || skipped[0] != sec {
		t.Errorf("skipped = %v, want [%s]", skipped, sec)
	}
	log := run(t, bare, "git", "log", "-p", "--all")
	for _, leak := range []string{"Private-note-7731", token, priv, sec} {
		if strings.Contains(log, leak) {
			t.Errorf("the remote holds %q", leak)
		}
	}
	if !strings.Contains(log, "A data scientist.") {
		t.Errorf("the remote lacks the public topic:\n%s", log)
	}
	// Still here, and the local index as it was (memdir leaves a private
	// topic out of it; the sync adds no line for it).
	a.read(t, priv)
	a.read(t, sec)
	if after := a.read(t, "MEMORY.md"); after != before {
		t.Errorf("the sync rewrote the local index:\n%s\n---\n%s", before, after)
	}
	if again := a.sync(t); again.Pushed {
		t.Errorf("a second sync pushed again: %+v", again)
	}
}

func TestMergeIndex(t *testing.T) {
	line := func(f, hook string) string { return "- [" + f + "](" + f + ".md) — " + hook + "\n" }
	for _, tc := range []struct {
		name                string
		base, local, remote string
		want                []string // files present, in any order
		absent              []string
	}{
		{"both add", line("user_a", "a"), line("user_a", "a") + line("user_b", "b"), line("user_a", "a") + line("user_c", "c"), []string{"(user_b.md)", "(user_c.md)", "(user_a.md)"}, nil},
		{"removed there, untouched here", line("user_a", "a") + line("user_b", "b"), line("user_a", "a") + line("user_b", "b"), line("user_a", "a"), []string{"(user_a.md)"}, []string{"user_b"}},
		{"removed here, untouched there", line("user_a", "a") + line("user_b", "b"), line("user_a", "a"), line("user_a", "a") + line("user_b", "b"), []string{"(user_a.md)"}, []string{"user_b"}},
		{"removed here, changed there: kept", line("user_b", "b"), "", line("user_b", "b2"), []string{"user_b.md) — b2"}, nil},
		{"changed there only", line("user_b", "b"), line("user_b", "b"), line("user_b", "b2"), []string{"user_b.md) — b2"}, nil},
		{"changed both: local", line("user_b", "b"), line("user_b", "b1"), line("user_b", "b2"), []string{"user_b.md) — b1"}, []string{"b2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(mergeIndex([]byte(tc.base), []byte(tc.local), []byte(tc.remote)))
			for _, w := range tc.want {
				if strings.Count(got, w) != 1 {
					t.Errorf("%q not once in\n%s", w, got)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(got, w) {
					t.Errorf("%q in\n%s", w, got)
				}
			}
		})
	}
}

func TestProjectFolder(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"github.com/acme/app", "github.com+acme+app"},
		{"github.com/Acme/App", "github.com+_41cme+_41pp"},
		{"path:/home/u/app", "path_3a+home+u+app"},
		{".hidden", "_2ehidden"},
		{"a+b", "a_2bb"},
	} {
		if got := ProjectFolder(tc.id); got != tc.want {
			t.Errorf("ProjectFolder(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	long := "github.com/" + strings.Repeat("x", 300)
	if got := ProjectFolder(long); len(got) > maxFolder || got == ProjectFolder(long+"y") {
		t.Errorf("long folder %q (%d)", got, len(got))
	}
}

func FuzzProjectFolder(f *testing.F) {
	for _, s := range []string{"github.com/acme/app", "path:/a/b", "..", ".", "a/../b", "A+b_2b"} {
		f.Add(s, "other")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		fa := ProjectFolder(a)
		if fa == "" && a != "" || fa == "." || fa == ".." || strings.ContainsAny(fa, "/\\\x00") || len(fa) > maxFolder || strings.HasPrefix(fa, ".") {
			t.Fatalf("ProjectFolder(%q) = %q", a, fa)
		}
		if a != b && len(fa) < maxFolder-17 && fa == ProjectFolder(b) {
			t.Fatalf("%q and %q share folder %q", a, b, fa)
		}
	})
}

func TestCheckRemote(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"git@github.com:me/memory.git", true},
		{"https://github.com/me/memory", true},
		{"file:///srv/memory.git", true},
		{"ssh://git@[::1]:22/memory.git", true},
		{"", false},
		{"--upload-pack=touch /tmp/x", false},
		{"ext::sh -c touch", false},
		{"fd::3", false},
		{"https://a b", false},
	} {
		if err := CheckRemote(tc.url); (err == nil) != tc.ok {
			t.Errorf("CheckRemote(%q) = %v, want ok %v", tc.url, err, tc.ok)
		}
	}
}

func TestRemoteSetShowUnset(t *testing.T) {
	home := t.TempDir()
	if u, err := Remote(home); u != "" || err != nil {
		t.Fatalf("Remote of a fresh home = %q, %v", u, err)
	}
	if _, err := Sync(context.Background(), Options{Home: home}); err != ErrNoRemote {
		t.Errorf("Sync without a remote = %v, want ErrNoRemote", err)
	}
	if err := SetRemote(home, "git@github.com:me/memory.git"); err != nil {
		t.Fatal(err)
	}
	if u, _ := Remote(home); u != "git@github.com:me/memory.git" {
		t.Errorf("Remote = %q", u)
	}
	if was, err := UnsetRemote(home); !was || err != nil {
		t.Errorf("UnsetRemote = %v, %v", was, err)
	}
	if was, _ := UnsetRemote(home); was {
		t.Errorf("a second UnsetRemote found a remote")
	}
}

// TestGitIgnoresCallersRepository runs a sync with GIT_DIR and
// GIT_WORK_TREE pointing at a project, as inside a git hook: the sync
// must not touch it.
func TestGitIgnoresCallersRepository(t *testing.T) {
	u := "file://" + bareRemote(t)
	a := newMachine(t, u)
	a.add(t, typesx.User, "Role", "A data scientist.", false)
	t.Setenv("GIT_DIR", filepath.Join(a.root, ".git"))
	t.Setenv("GIT_WORK_TREE", a.root)
	a.sync(t)
	cmd := exec.Command("git", "-C", a.root, "--git-dir", filepath.Join(a.root, ".git"), "for-each-ref")
	if out, _ := cmd.Output(); strings.Contains(string(out), "origin/main") || strings.Contains(string(out), "memdir") {
		t.Errorf("the project's repository got refs:\n%s", out)
	}
}

// TestSyncNewRemoteLosesNothing points a machine that synced with one
// remote at an empty other one: its last sync is no base there, so
// nothing reads as removed.
func TestSyncNewRemoteLosesNothing(t *testing.T) {
	a := newMachine(t, "file://"+bareRemote(t))
	file := a.add(t, typesx.User, "Role", "A data scientist.", false)
	a.sync(t)
	second := bareRemote(t)
	if err := SetRemote(a.home, "file://"+second); err != nil {
		t.Fatal(err)
	}
	if res := a.sync(t); !res.Pushed {
		t.Errorf("the first sync with the new remote pushed nothing")
	}
	a.read(t, file)
	if log := run(t, second, "git", "log", "-p", "main"); !strings.Contains(log, "A data scientist.") {
		t.Errorf("the new remote lacks the memory")
	}
}

// TestSyncTwoClonesOneMachine syncs two memory directories of one
// identity: the second is reported, not raced.
func TestSyncTwoClonesOneMachine(t *testing.T) {
	a := newMachine(t, "file://"+bareRemote(t))
	a.add(t, typesx.User, "Role", "A data scientist.", false)
	other := newMachine(t, "file://unused")
	other.home, other.mem = a.home, filepath.Join(a.home, "projects", "-other-app", "memory")
	other.add(t, typesx.User, "Editor", "Uses vim.", false)
	res := a.sync(t)
	var skipped int
	for _, p := range res.Projects {
		skipped += len(p.Skipped)
	}
	if len(res.Projects) != 2 || skipped != 1 {
		t.Errorf("projects = %+v, want two with one skipped", res.Projects)
	}
}

// TestSyncRetriesWhenAnotherMachinePushedFirst makes the remote's main
// move between A's look at it and A's push, as when machine B pushes in
// that moment: the remote's pre-receive hook moves main to B's commit on
// A's first push, so that push is refused; A must fetch again, merge B's
// memory and push on top of it.
func TestSyncRetriesWhenAnotherMachinePushedFirst(t *testing.T) {
	bare := bareRemote(t)
	u := "file://" + bare
	a, b := newMachine(t, u), newMachine(t, u)
	fb := b.add(t, typesx.User, "Editor", "Uses vim.", false)
	b.sync(t)
	cb := strings.TrimSpace(run(t, bare, "git", "rev-parse", "main"))
	run(t, bare, "git", "update-ref", "refs/prepared", cb)
	run(t, bare, "git", "update-ref", "-d", "refs/heads/main")
	mark := filepath.Join(t.TempDir(), "raced")
	hook := "#!/bin/sh\nif [ ! -e " + mark + " ]; then\n  touch " + mark + "\n  unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES\n  git update-ref refs/heads/main " + cb + "\nfi\ncat >/dev/null\n"
	if err := os.WriteFile(filepath.Join(bare, "hooks", "pre-receive"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	fa := a.add(t, typesx.User, "Role", "A data scientist.", false)
	res := a.sync(t)
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("the hook never ran: %v", err)
	}
	if !res.Pushed {
		t.Fatalf("A never pushed: %+v", res)
	}
	a.read(t, fb)
	tree := run(t, bare, "git", "ls-tree", "-r", "--name-only", "main")
	for _, f := range []string{fa, fb} {
		if !strings.Contains(tree, f) {
			t.Errorf("the remote's main lacks %s:\n%s", f, tree)
		}
	}
}

// TestSyncRefitsIndex merges two indexes of 150 entries each: the union
// is over the 200-line cap, so the index is fitted, every entry still in
// MEMORY.md or an overflow index.
func TestSyncRefitsIndex(t *testing.T) {
	u := "file://" + bareRemote(t)
	a, b := newMachine(t, u), newMachine(t, u)
	writeTopics(t, a, "alpha", 150)
	writeTopics(t, b, "beta", 150)
	a.sync(t)
	res := b.sync(t)
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	d := memdir.Open(b.mem, memdir.Live)
	ix := b.read(t, "MEMORY.md")
	if lines := strings.Count(ix, "\n"); lines > 200 {
		t.Errorf("MEMORY.md has %d lines after the merge", lines)
	}
	all := ix
	for _, f := range d.OverflowFiles() {
		all += b.read(t, f)
	}
	for _, name := range []string{"reference_alpha_0000.md", "reference_alpha_0149.md", "reference_beta_0000.md", "reference_beta_0149.md"} {
		if strings.Count(all, "("+name+")") != 1 {
			t.Errorf("%s is listed %d times in the indexes", name, strings.Count(all, "("+name+")"))
		}
	}
}

// TestSyncCleansAKilledSyncsMergeDir leaves a merge directory as a killed
// sync would: the next sync, holding the lock, removes it and its own.
func TestSyncCleansAKilledSyncsMergeDir(t *testing.T) {
	a := newMachine(t, "file://"+bareRemote(t))
	a.add(t, typesx.User, "Role", "A data scientist.", false)
	left := filepath.Join(a.home, Folder, ".merge-123")
	if err := os.MkdirAll(left, 0o700); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	if got, _ := filepath.Glob(filepath.Join(a.home, Folder, ".merge-*")); len(got) != 0 {
		t.Errorf("merge directories left: %v", got)
	}
}

// TestSyncEditBeatsRemoval: A removes a topic while B edits it. The edit
// stays, on both machines, with its line in MEMORY.md.
func TestSyncEditBeatsRemoval(t *testing.T) {
	u := "file://" + bareRemote(t)
	a, b := newMachine(t, u), newMachine(t, u)
	file := a.add(t, typesx.Project, "Freeze", "Merge freeze Thursday.", false)
	a.sync(t)
	b.sync(t)
	if _, err := memdir.Open(a.mem, memdir.Live).RemoveTopic(file); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(b.read(t, file), "Merge freeze Thursday.", "Merge freeze moved to Friday.", 1)
	if err := os.WriteFile(filepath.Join(b.mem, file), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	b.sync(t)
	a.sync(t)
	for _, m := range []*machine{a, b} {
		if got := m.read(t, file); !strings.Contains(got, "moved to Friday") {
			t.Errorf("%s: %s = %q", m.home, file, got)
		}
		if ix := m.read(t, "MEMORY.md"); strings.Count(ix, "("+file+")") != 1 {
			t.Errorf("%s: MEMORY.md does not list %s once:\n%s", m.home, file, ix)
		}
	}
}
