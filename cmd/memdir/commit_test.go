package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitWitness runs the git CLI (a witness only: memdir never runs git).
func gitWitness(t *testing.T, env []string, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// projectEnv is the environment of a test project: HOME and memdir's
// home inside it, a pinned clock and a git identity.
func projectEnv(t *testing.T, home string) map[string]string {
	t.Helper()
	return map[string]string{
		"HOME": home, "MEMDIR_HOME": filepath.Join(home, ".memdir"), "TZ": "UTC",
		"MEMDIR_NOW": "2026-11-22T10:04:05Z", "MEMDIR_MANAGED_CONFIG": filepath.Join(home, "managed.yaml"),
		"GIT_CONFIG_GLOBAL": filepath.Join(home, ".gitconfig"), "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"PATH": os.Getenv("PATH"),
	}
}

func envList(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

// memdirIn runs memdir in-process with --cwd dir and --dir .memdir.
func memdirIn(env map[string]string, dir string, args ...string) (int, string, string) {
	var out, errw bytes.Buffer
	args = append([]string{"--cwd", dir, "--dir", ".memdir"}, args...)
	code := run(args, strings.NewReader(""), &out, &errw, func(k string) string { return env[k] })
	return code, out.String(), errw.String()
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setupProject makes a project repository with a commit, memory with a
// topic in .memdir, and a person's work in progress: a staged change, an
// unstaged change, a file both staged and edited again, a staged new
// file, a staged removal and an untracked file.
func setupProject(t *testing.T) (top string, env map[string]string, genv []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git CLI (a test witness) is not installed")
	}
	base := t.TempDir()
	top = filepath.Join(base, "proj")
	env = projectEnv(t, filepath.Join(base, "home"))
	genv = envList(env)
	os.MkdirAll(filepath.Join(base, "home"), 0o755)
	gitWitness(t, genv, base, "init", "-q", "-b", "main", top)
	for _, f := range []string{"a.go", "b.go", "c.go", "gone.go"} {
		writeFile(t, filepath.Join(top, f), "package p // "+f+"\n")
	}
	gitWitness(t, genv, top, "add", ".")
	gitWitness(t, genv, top, "commit", "-q", "-m", "start")
	if code, _, errw := memdirIn(env, top, "add", "user", "Role", "Senior Go engineer."); code != 0 {
		t.Fatalf("memdir add: exit %d: %s", code, errw)
	}
	writeFile(t, filepath.Join(top, "a.go"), "package p // a, staged\n")
	writeFile(t, filepath.Join(top, "c.go"), "package p // c, staged\n")
	writeFile(t, filepath.Join(top, "new.go"), "package p // new\n")
	gitWitness(t, genv, top, "add", "a.go", "c.go", "new.go")
	gitWitness(t, genv, top, "rm", "-q", "gone.go")
	writeFile(t, filepath.Join(top, "b.go"), "package p // b, unstaged\n")
	writeFile(t, filepath.Join(top, "c.go"), "package p // c, staged then edited\n")
	writeFile(t, filepath.Join(top, "untracked.txt"), "scratch\n")
	return top, env, genv
}

// TestCommitOnlyMemory: memdir commit in a project with unrelated staged
// and unstaged changes commits only memory paths, and git status of
// everything else is the same before and after.
func TestCommitOnlyMemory(t *testing.T) {
	top, env, genv := setupProject(t)
	outside := []string{"status", "--porcelain", "--untracked-files=all", "--", ".", ":!.memdir"}
	before := gitWitness(t, genv, top, outside...)
	stagedBefore := gitWitness(t, genv, top, "diff", "--cached", "--", ".", ":!.memdir")
	code, out, errw := memdirIn(env, top, "commit")
	if code != 0 {
		t.Fatalf("memdir commit: exit %d: %s", code, errw)
	}
	if !strings.HasPrefix(out, "committed 3 memory files to main") {
		t.Errorf("memdir commit said %q", out)
	}
	files := strings.Fields(gitWitness(t, genv, top, "show", "--format=", "--name-only", "HEAD"))
	want := []string{".memdir/.gitignore", ".memdir/MEMORY.md", ".memdir/user_role.md"}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files in the commit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, gitWitness(t, genv, top, outside...)); diff != "" {
		t.Errorf("git status outside memory changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(stagedBefore, gitWitness(t, genv, top, "diff", "--cached", "--", ".", ":!.memdir")); diff != "" {
		t.Errorf("staged changes changed (-before +after):\n%s", diff)
	}
	if got := gitWitness(t, genv, top, "status", "--porcelain", "--untracked-files=all", "--", ".memdir"); got != "" {
		t.Errorf("memory not clean after the commit (private state must be ignored):\n%s", got)
	}
	gitWitness(t, genv, top, "fsck", "--strict")
}

// TestCommitRefusals: a detached HEAD and a merge in progress are refused
// with a clear message, and nothing is committed.
func TestCommitRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, top string, genv []string)
		want  string
	}{
		{"detached HEAD", func(t *testing.T, top string, genv []string) {
			gitWitness(t, genv, top, "checkout", "-q", "--detach")
		}, "memdir: not committing memory: HEAD is detached: check out a branch first (git switch BRANCH)\n"},
		{"merge in progress", func(t *testing.T, top string, genv []string) {
			// A real merge that stops on a conflict in unrelated code.
			gitWitness(t, genv, top, "stash", "-q")
			gitWitness(t, genv, top, "checkout", "-q", "-b", "other")
			writeFile(t, filepath.Join(top, "a.go"), "package p // other\n")
			gitWitness(t, genv, top, "commit", "-q", "-am", "other")
			gitWitness(t, genv, top, "checkout", "-q", "main")
			writeFile(t, filepath.Join(top, "a.go"), "package p // main\n")
			gitWitness(t, genv, top, "commit", "-q", "-am", "main")
			cmd := exec.Command("git", "merge", "-q", "other")
			cmd.Dir, cmd.Env = top, genv
			if cmd.Run() == nil {
				t.Fatal("the merge did not stop on a conflict")
			}
		}, "memdir: not committing memory: a merge is in progress: finish it first (git merge --continue or --abort)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top, env, genv := setupProject(t)
			tc.setup(t, top, genv)
			head := gitWitness(t, genv, top, "rev-parse", "HEAD")
			code, _, errw := memdirIn(env, top, "commit")
			if code != 1 || errw != tc.want {
				t.Errorf("memdir commit: exit %d, stderr %q; want exit 1, %q", code, errw, tc.want)
			}
			if got := gitWitness(t, genv, top, "rev-parse", "HEAD"); got != head {
				t.Errorf("HEAD moved from %s to %s", head, got)
			}
		})
	}
}
