package memgit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReflogOwnRepo(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	write(t, filepath.Join(dir, "user_a.md"), "a\n")
	if _, err := r.Commit([]string{"user_a.md"}, "add user_a.md\n\nbody"); err != nil {
		t.Fatal(err)
	}
	want := "HEAD@{0} commit: add user_a.md\nHEAD@{1} commit (initial): init\n"
	if got := runGit(t, dir, "reflog", "--format=%gd %gs"); got != want {
		t.Errorf("git reflog =\n%s\nwant\n%s", got, want)
	}
	want = strings.ReplaceAll(want, "HEAD@", "main@")
	if got := runGit(t, dir, "reflog", "show", "--format=%gd %gs", "main"); got != want {
		t.Errorf("git reflog show main =\n%s\nwant\n%s", got, want)
	}
	if got := runGit(t, dir, "reflog", "--format=%gn <%ge> %gd", "-1"); got != "Test <test@example.com> HEAD@{0}\n" {
		t.Errorf("reflog identity = %q", got)
	}
	if got := runGit(t, dir, "rev-parse", "HEAD@{1}"); got != runGit(t, dir, "rev-parse", "HEAD~1") {
		t.Errorf("HEAD@{1} = %s, want HEAD~1", got)
	}
	runGit(t, dir, "fsck", "--strict")
}

func TestReflogProject(t *testing.T) {
	for _, tc := range []struct {
		name, setting string
		want          string
	}{
		{"default", "", "HEAD@{0} commit: memdir: add c\nHEAD@{1} commit (initial): start\n"},
		{"off, log exists", "false", "HEAD@{0} commit: memdir: add c\nHEAD@{1} commit (initial): start\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, top := newProject(t)
			if tc.setting != "" {
				runGit(t, top, "config", "core.logAllRefUpdates", tc.setting)
			}
			write(t, filepath.Join(top, ".memory", "user_c.md"), "c\n")
			if _, err := r.Commit([]string{"user_c.md"}, "memdir: add c"); err != nil {
				t.Fatal(err)
			}
			if got := runGit(t, top, "reflog", "--format=%gd %gs"); got != tc.want {
				t.Errorf("git reflog =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestReflogOff(t *testing.T) {
	requireGit(t)
	dir := filepath.Join(t.TempDir(), "memory")
	write(t, filepath.Join(dir, "user_a.md"), "a\n")
	r, _, err := Init(dir, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "config", "core.logAllRefUpdates", "false")
	if _, _, err := r.CommitAll("init"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "logs")); !os.IsNotExist(err) {
		t.Errorf("logs written with core.logAllRefUpdates off: %v", err)
	}
}
