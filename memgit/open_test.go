package memgit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/canonical"
)

func TestOpenNoRepo(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, top string)
	}{
		{"no .git", func(*testing.T, string) {}},
		{".git without HEAD", func(t *testing.T, top string) {
			if err := os.MkdirAll(filepath.Join(top, ".git", "objects"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{".git file to nowhere", func(t *testing.T, top string) {
			write(t, filepath.Join(top, ".git"), "gitdir: ../gone\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			tc.setup(t, top)
			mem := filepath.Join(top, "memory")
			write(t, filepath.Join(mem, "MEMORY.md"), "")
			if _, err := Open(mem, testOpts); !errors.Is(err, ErrNoRepo) {
				t.Errorf("Open = %v, want ErrNoRepo", err)
			}
		})
	}
}

func TestOpenGitFileAndSubdir(t *testing.T) {
	requireGit(t)
	top := t.TempDir()
	gitDir := filepath.Join(t.TempDir(), "separate.git")
	runGit(t, top, "init", "-q", "-b", "main", "--separate-git-dir", gitDir)
	mem := filepath.Join(top, "deep", "memory")
	write(t, filepath.Join(mem, "user_a.md"), "a\n")
	r, err := Open(mem, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Prefix() != "deep/memory" || r.Own() {
		t.Errorf("Prefix = %q, Own = %v; want deep/memory, false", r.Prefix(), r.Own())
	}
	if _, err := r.Commit([]string{"user_a.md"}, "add user_a.md"); err != nil {
		t.Fatal(err)
	}
	if got := runGit(t, top, "log", "--format=%s"); got != "add user_a.md\n" {
		t.Errorf("git log = %q", got)
	}
	if got := runGit(t, top, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q, want clean", got)
	}
}

func TestOpenRefusesFormat(t *testing.T) {
	requireGit(t)
	top := t.TempDir()
	runGit(t, top, "init", "-q", "--object-format=sha256")
	_, err := Open(top, testOpts)
	if err == nil || errors.Is(err, ErrNoRepo) || !strings.Contains(err.Error(), "objectformat") {
		t.Errorf("Open of a sha256 repository = %v; want an objectformat error", err)
	}
}

func TestCheckFormat(t *testing.T) {
	for _, tc := range []struct {
		config string
		bad    string // part of the error; "" for none
	}{
		{"[core]\n\trepositoryformatversion = 0\n", ""},
		{"[core]\n", ""},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tnoop = true\n", ""},
		{"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tnoop = true\n", ""},
		{"[core]\n\trepositoryformatversion = 2\n", "not supported"},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = sha256\n", "unknown extension: objectformat"},
		{"[core]\n\trepositoryformatversion = 0\n[extensions]\n\trefStorage = reftable\n", "does not support extension: refstorage"},
		{"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tworktreeConfig = true\n", ""},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n\tpartialClone = origin\n", "unknown extension: partialclone"},
	} {
		t.Run(tc.config, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "config"), tc.config)
			cfg, err := canonical.GitDirs{GitDir: dir, CommonDir: dir}.Config()
			if err != nil {
				t.Fatal(err)
			}
			err = checkFormat(cfg)
			if tc.bad == "" && err != nil || tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)) {
				t.Errorf("checkFormat = %v, want %q", err, tc.bad)
			}
		})
	}
}

func TestInitSkeleton(t *testing.T) {
	requireGit(t)
	dir := filepath.Join(t.TempDir(), "new", "memory")
	r, created, err := Init(dir, testOpts)
	if err != nil || !created || !r.Own() {
		t.Fatalf("Init = %v, created %v", err, created)
	}
	if got := runGit(t, dir, "symbolic-ref", "HEAD"); got != "refs/heads/main\n" {
		t.Errorf("HEAD = %q, want refs/heads/main", got)
	}
	if got := runGit(t, dir, "config", "core.bare"); got != "false\n" {
		t.Errorf("core.bare = %q", got)
	}
	runGit(t, dir, "fsck", "--strict")
	if got := runGit(t, dir, "status", "--porcelain"); got != "?? .gitignore\n" {
		t.Errorf("git status = %q", got)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".memdir-tmp-*")); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if _, created, err := Init(dir, testOpts); err != nil || created {
		t.Errorf("second Init = %v, created %v; want nothing made", err, created)
	}
}

func TestSignatureFromConfig(t *testing.T) {
	requireGit(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	write(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = Global Name\n\temail = global@example.com\n")
	r, dir := newOwn(t)
	r.opts.Getenv = func(string) string { return "" }
	if got := r.signature("AUTHOR", r.now()); got.Name != "Global Name" || got.Email != "global@example.com" {
		t.Errorf("signature from the global config = %s <%s>", got.Name, got.Email)
	}
	runGit(t, dir, "config", "user.name", "Repo Name")
	if got := r.signature("AUTHOR", r.now()); got.Name != "Repo Name" || got.Email != "global@example.com" {
		t.Errorf("signature with a repository user.name = %s <%s>", got.Name, got.Email)
	}
	t.Setenv("HOME", t.TempDir())
	runGit(t, dir, "config", "--unset", "user.name")
	if got := r.signature("COMMITTER", r.now()); got.Name != "memdir" || got.Email != "memdir@localhost" {
		t.Errorf("signature with no config = %s <%s>", got.Name, got.Email)
	}
}
