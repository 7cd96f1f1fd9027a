package memgit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The git CLI is only a witness in these tests: memgit itself never runs
// it.

func gitEnv(home string) []string {
	env := []string{
		"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + filepath.Join(home, ".gitconfig"),
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
		"PATH=" + os.Getenv("PATH"), "TZ=UTC",
	}
	return env
}

// runGit runs the git CLI in dir and returns its output; it fails the
// test when git fails.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := tryGit(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func tryGit(dir string, args ...string) (string, error) {
	out, err := gitCmd(dir, args...).CombinedOutput()
	return string(out), err
}

// gitCmd is the git CLI set to run in dir.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	return cmd
}

func requireGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git CLI (a test witness) is not installed")
	}
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var testOpts = Options{
	Now: func() time.Time { return time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC) },
	Getenv: func(k string) string {
		return map[string]string{"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
			"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com"}[k]
	},
}

// newOwn makes a memory directory that is its own repository, with its
// first commit.
func newOwn(t *testing.T) (*Repo, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "memory")
	write(t, filepath.Join(dir, "MEMORY.md"), "")
	write(t, filepath.Join(dir, ".memdir", "mode"), "live\n")
	write(t, filepath.Join(dir, ".memdir", "root"), "/some/where\n")
	r, created, err := Init(dir, testOpts)
	if err != nil || !created {
		t.Fatalf("Init: %v, created %v", err, created)
	}
	if _, _, err := r.CommitAll("init"); err != nil {
		t.Fatalf("CommitAll: %v", err)
	}
	return r, dir
}

// newProject makes a project repository with a few committed files and a
// memory directory at .memory inside it, and opens the memory's repo.
func newProject(t *testing.T) (*Repo, string) {
	t.Helper()
	requireGit(t)
	top := t.TempDir()
	runGit(t, top, "init", "-q", "-b", "main")
	write(t, filepath.Join(top, "main.go"), "package main\n")
	write(t, filepath.Join(top, "README.md"), "# project\n")
	write(t, filepath.Join(top, "lib", "lib.go"), "package lib\n")
	write(t, filepath.Join(top, ".memory", "MEMORY.md"), "- [A](user_a.md) — a\n")
	write(t, filepath.Join(top, ".memory", "user_a.md"), "a\n")
	runGit(t, top, "add", ".")
	runGit(t, top, "commit", "-q", "-m", "start")
	r, err := Open(filepath.Join(top, ".memory"), testOpts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return r, top
}
