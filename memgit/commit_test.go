package memgit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrivate(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"MEMORY.md", false},
		{"user_role.md", false},
		{"logs/2026/11/2026-11-22.md", false},
		{"archive/project_old.md", false},
		{".gitignore", false},
		{".memdir/mode", false},
		{".memdir/lock", true},
		{".memdir/root", true},
		{".memdir/edit/user_role.md", true},
		{".memdir/dream/state.json", true},
		{".memdir", true},
		{".consolidate-lock", true},
		{".memdir-tmp-user_role.md-123", true},
		{"logs/.memdir-tmp-x", true},
		{".user_role.md.swp", true},
		{"user_role.md~", true},
		{".#user_role.md", true},
		{".git/config", true},
	} {
		if got := Private(tc.path); got != tc.want {
			t.Errorf("Private(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestOwnRepoCommits(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	write(t, filepath.Join(dir, "user_role.md"), "role\n")
	write(t, filepath.Join(dir, "MEMORY.md"), "- [Role](user_role.md) — role\n")
	write(t, filepath.Join(dir, ".memdir", "lock"), "pid 1\n")
	if _, err := r.Commit([]string{"user_role.md", "MEMORY.md", ".memdir/lock"}, "add user_role.md"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "logs", "2026", "11", "2026-11-22.md"), "# 2026-11-22\n")
	if _, err := r.Commit([]string{"logs/2026/11/2026-11-22.md"}, "log user Role"); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "user_role.md"))
	write(t, filepath.Join(dir, "MEMORY.md"), "")
	if _, err := r.Commit([]string{"user_role.md", "MEMORY.md"}, "rm user_role.md"); err != nil {
		t.Fatal(err)
	}
	// Nothing changed: no commit.
	res, err := r.Commit([]string{"MEMORY.md"}, "index --rebuild")
	if err != nil || res.Committed() {
		t.Fatalf("unchanged commit: %v, committed %v", err, res.Committed())
	}
	got := runGit(t, dir, "log", "--format=%s")
	want := "rm user_role.md\nlog user Role\nadd user_role.md\ninit\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("git log (-want +got):\n%s", diff)
	}
	if out := runGit(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("git status after commits = %q, want clean", out)
	}
	runGit(t, dir, "fsck", "--strict")
	files := runGit(t, dir, "ls-tree", "-r", "--name-only", "HEAD")
	if diff := cmp.Diff(".gitignore\n.memdir/mode\nMEMORY.md\nlogs/2026/11/2026-11-22.md\n", files); diff != "" {
		t.Errorf("files at HEAD (-want +got):\n%s", diff)
	}
}

func TestTreeOrderAndNesting(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	// Git sorts a directory "a" as "a/", after "a-b" and "a.md".
	paths := []string{"a.md", "a-b.md", "a/x.md", "a/b/c.md", "a0.md"}
	for _, p := range paths {
		write(t, filepath.Join(dir, p), p+"\n")
	}
	if _, err := r.Commit(paths, "many"); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "fsck", "--strict")
	if out := runGit(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("git status = %q, want clean", out)
	}
	os.RemoveAll(filepath.Join(dir, "a"))
	if _, err := r.Commit([]string{"a/x.md", "a/b/c.md"}, "drop a"); err != nil {
		t.Fatal(err)
	}
	if out := runGit(t, dir, "ls-tree", "--name-only", "HEAD"); strings.Contains(out, "a\n") {
		t.Errorf("empty directory a left in the tree:\n%s", out)
	}
	runGit(t, dir, "fsck", "--strict")
}

// statusWithout is git status --porcelain without the lines of paths
// under prefix.
func statusWithout(t *testing.T, top, prefix string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(runGit(t, top, "status", "--porcelain", "--untracked-files=all"), "\n") {
		if l != "" && !strings.Contains(l, " "+prefix) {
			out = append(out, l)
		}
	}
	return out
}

func TestProjectCommitLeavesOtherChanges(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("index-v"+version, func(t *testing.T) { testProjectCommit(t, version) })
	}
}

func testProjectCommit(t *testing.T, version string) {
	r, top := newProject(t)
	runGit(t, top, "update-index", "--index-version", version)
	if version == "3" {
		write(t, filepath.Join(top, "intent.txt"), "later\n")
		runGit(t, top, "add", "-N", "intent.txt") // an extended flag
	}
	write(t, filepath.Join(top, "main.go"), "package main\n\nfunc main() {}\n")
	runGit(t, top, "add", "main.go")                               // staged
	write(t, filepath.Join(top, "README.md"), "# project\nmore\n") // unstaged
	write(t, filepath.Join(top, "lib", "lib.go"), "package lib // staged\n")
	runGit(t, top, "add", "lib/lib.go")
	write(t, filepath.Join(top, "lib", "lib.go"), "package lib // staged, then edited\n") // both
	write(t, filepath.Join(top, "notes.txt"), "untracked\n")
	staged := runGit(t, top, "diff", "--cached")
	before := statusWithout(t, top, ".memory/")

	write(t, filepath.Join(top, ".memory", "feedback_b.md"), "b\n")
	write(t, filepath.Join(top, ".memory", "MEMORY.md"), "- [A](user_a.md) — a\n- [B](feedback_b.md) — b\n")
	os.Remove(filepath.Join(top, ".memory", "user_a.md"))
	res, c, err := r.CommitAll("memdir: remember b")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Changes{Added: []string{"feedback_b.md"}, Modified: []string{"MEMORY.md"}, Removed: []string{"user_a.md"}}, c); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if !res.Committed() || res.Branch != "main" {
		t.Fatalf("result %+v", res)
	}
	got := strings.Fields(runGit(t, top, "show", "--format=", "--name-status", "HEAD"))
	want := []string{"M", ".memory/MEMORY.md", "A", ".memory/feedback_b.md", "D", ".memory/user_a.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files in the commit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, statusWithout(t, top, ".memory/")); diff != "" {
		t.Errorf("git status of other files changed (-before +after):\n%s", diff)
	}
	if got := runGit(t, top, "diff", "--cached"); got != staged {
		t.Errorf("staged changes differ after the commit:\n%s\nwant:\n%s", got, staged)
	}
	if out := runGit(t, top, "status", "--porcelain", ".memory"); out != "" {
		t.Errorf("memory not clean after commit: %q", out)
	}
	runGit(t, top, "fsck", "--strict")
	if data, _ := os.ReadFile(filepath.Join(top, ".git", "index")); len(data) < 8 || fmt.Sprint(data[7]) != version {
		t.Errorf("index header after the commit = %q, want version %s", data[:8], version)
	}
}

func TestProjectRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, top string)
		want  string
	}{
		{"detached", func(t *testing.T, top string) { runGit(t, top, "checkout", "-q", "--detach") }, "detached"},
		{"merge", func(t *testing.T, top string) { write(t, filepath.Join(top, ".git", "MERGE_HEAD"), "x\n") }, "merge is in progress"},
		{"rebase", func(t *testing.T, top string) {
			os.MkdirAll(filepath.Join(top, ".git", "rebase-merge"), 0o755)
		}, "rebase is in progress"},
		{"index.lock", func(t *testing.T, top string) { write(t, filepath.Join(top, ".git", "index.lock"), "") }, "index.lock exists"},
		{"conflict", conflictOnMemory, "has conflicts"},
		{"ref lock", func(t *testing.T, top string) {
			write(t, filepath.Join(top, ".git", "refs", "heads", "main.lock"), "")
		}, "main.lock exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, top := newProject(t)
			tc.setup(t, top)
			head := runGit(t, top, "rev-parse", "HEAD")
			write(t, filepath.Join(top, ".memory", "user_c.md"), "c\n")
			_, err := r.Commit([]string{"user_c.md", "user_a.md"}, "add user_c.md")
			var refused *RefusedError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Commit error = %v, want a refusal saying %q", err, tc.want)
			}
			if got := runGit(t, top, "rev-parse", "HEAD"); got != head {
				t.Errorf("HEAD moved from %s to %s", head, got)
			}
			if _, err := os.Stat(filepath.Join(top, ".git", "index.lock")); err == nil && tc.name != "index.lock" {
				t.Error("index.lock left behind")
			}
		})
	}
}

// conflictOnMemory leaves a merge stopped on a conflict in user_a.md.
func conflictOnMemory(t *testing.T, top string) {
	runGit(t, top, "checkout", "-q", "-b", "other")
	write(t, filepath.Join(top, ".memory", "user_a.md"), "other\n")
	runGit(t, top, "commit", "-q", "-am", "other")
	runGit(t, top, "checkout", "-q", "main")
	write(t, filepath.Join(top, ".memory", "user_a.md"), "mine\n")
	runGit(t, top, "commit", "-q", "-am", "mine")
	if _, err := tryGit(top, "merge", "-q", "other"); err == nil {
		t.Fatal("merge did not conflict")
	}
	os.Remove(filepath.Join(top, ".git", "MERGE_HEAD")) // the conflict alone must refuse
}

func TestInitInsideWorkTreeRefused(t *testing.T) {
	_, top := newProject(t)
	_, _, err := Init(filepath.Join(top, ".memory"), testOpts)
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("Init inside a work tree: %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(top, ".memory", ".git")); err == nil {
		t.Error("Init created a nested repository")
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		c    Changes
		want string
	}{
		{Changes{Added: []string{"a.md"}, Removed: []string{"b.md"}}, "add a.md, rm b.md"},
		{Changes{Modified: []string{"MEMORY.md"}}, "edit MEMORY.md"},
		{Changes{Added: []string{"a", "b", "c"}, Modified: []string{"d"}}, "3 added, 1 edited"},
	} {
		if got := tc.c.Summary(); got != tc.want {
			t.Errorf("Summary(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
	paths := Changes{Added: []string{"b"}, Removed: []string{"a"}}.Paths()
	if !sort.StringsAreSorted(paths) || len(paths) != 2 {
		t.Errorf("Paths = %v", paths)
	}
}

func TestLinkedWorktree(t *testing.T) {
	_, top := newProject(t)
	wt := filepath.Join(t.TempDir(), "wt")
	runGit(t, top, "worktree", "add", "-q", "-b", "side", wt)
	write(t, filepath.Join(wt, ".memory", "user_w.md"), "w\n")
	write(t, filepath.Join(wt, "main.go"), "package main // staged in the worktree\n")
	runGit(t, wt, "add", "main.go")
	r, err := Open(filepath.Join(wt, ".memory"), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Commit([]string{"user_w.md"}, "add user_w.md")
	if err != nil || res.Branch != "side" {
		t.Fatalf("Commit in a linked worktree: %+v, %v", res, err)
	}
	if got := runGit(t, wt, "log", "-1", "--format=%s", "side"); got != "add user_w.md\n" {
		t.Errorf("side's tip is %q", got)
	}
	if got := runGit(t, top, "log", "-1", "--format=%s", "main"); got != "start\n" {
		t.Errorf("main moved: %q", got)
	}
	if got := runGit(t, wt, "status", "--porcelain"); got != "M  main.go\n" {
		t.Errorf("worktree status = %q, want only the staged main.go", got)
	}
	if got := runGit(t, wt, "reflog", "-1", "--format=%gs"); got != "commit: add user_w.md\n" {
		t.Errorf("the worktree's HEAD reflog ends with %q", got)
	}
	if got := runGit(t, top, "reflog", "-1", "--format=%gs"); got != "commit (initial): start\n" {
		t.Errorf("the main worktree's HEAD reflog ends with %q", got)
	}
	runGit(t, top, "fsck", "--strict")
}

// TestRebaseStoppedReported: a rebase stopped on a conflict detaches
// HEAD; memgit must name the rebase, not the detached HEAD.
func TestRebaseStoppedReported(t *testing.T) {
	r, top := newProject(t)
	conflictOnMemory(t, top)
	runGit(t, top, "reset", "-q", "--hard")
	runGit(t, top, "checkout", "-q", "other")
	if _, err := tryGit(top, "rebase", "main"); err == nil {
		t.Fatal("rebase did not stop")
	}
	write(t, filepath.Join(top, ".memory", "user_c.md"), "c\n")
	_, err := r.Commit([]string{"user_c.md"}, "memdir: add c")
	if got := fmtErr(err); !strings.Contains(got, "a rebase is in progress") || strings.Contains(got, "detached") {
		t.Errorf("Commit during a rebase = %v, want it named", err)
	}
}
