package canonical

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/google/go-cmp/cmp"
)

// git runs the git CLI as a witness to build fixtures, isolated from the
// user's and the system's configuration.
func git(t testing.TB, dir string, args ...string) {
	t.Helper()
	pre := []string{"-c", "user.name=x", "-c", "user.email=x@example.com",
		"-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}
	cmd := exec.Command("git", append(pre, args...)...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
}

func mkdir(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixture builds, under one resolved temp dir, a main repo with linked
// worktrees outside and inside it, a submodule with its own worktree,
// symlinks, a bare repo with a worktree, a separate-git-dir repo, a second
// repo and a plain directory.
func fixture(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := func(p string) string { return filepath.Join(base, filepath.FromSlash(p)) }
	writeFile(t, j("main/sub/deep/file.txt"), "hi\n")
	git(t, j("main"), "init", "-q")
	git(t, j("main"), "add", ".")
	git(t, j("main"), "commit", "-qm", "init")
	git(t, j("main"), "worktree", "add", "-q", j("wt-out"), "-b", "out")
	git(t, j("main"), "worktree", "add", "-q", "wt", "-b", "in")
	mkdir(t, j("lib"))
	git(t, j("lib"), "init", "-q")
	git(t, j("lib"), "commit", "-q", "--allow-empty", "-m", "init")
	git(t, j("main"), "submodule", "add", "-q", j("lib"), "libsub")
	git(t, j("main/libsub"), "worktree", "add", "-q", j("libwt"), "-b", "wt")
	git(t, base, "clone", "-q", "--bare", j("main"), "bare.git")
	git(t, j("bare.git"), "worktree", "add", "-q", j("bwt"))
	git(t, base, "init", "-q", "--separate-git-dir", j("sep.git"), "sepwt")
	git(t, base, "init", "-q", "other")
	mkdir(t, j("plain/inner"))
	mkdir(t, j("main/empty/.git")) // no HEAD: not a repository
	for link, target := range map[string]string{"link": "main", "sublink": "main/sub/deep", "wtlink": "wt-out/sub"} {
		if err := os.Symlink(j(target), j(link)); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
	return base
}

func TestFind(t *testing.T) {
	base := fixture(t)
	j := func(p string) string { return filepath.Join(base, filepath.FromSlash(p)) }
	tests := []struct {
		name, path, root, workTree, kind string
	}{
		{"main root", "main", "main", "main", KindMain},
		{"main subdir", "main/sub/deep", "main", "main", KindMain},
		{"file in main", "main/sub/deep/file.txt", "main", "main", KindMain},
		{"dot git dir", "main/.git", "main", "main", KindMain},
		{"empty .git skipped", "main/empty", "main", "main", KindMain},
		{"linked outside", "wt-out", "main", "wt-out", KindLinked},
		{"linked outside subdir", "wt-out/sub/deep", "main", "wt-out", KindLinked},
		{"linked inside main", "main/wt", "main", "main/wt", KindLinked},
		{"linked inside main subdir", "main/wt/sub", "main", "main/wt", KindLinked},
		{"symlink to repo", "link", "main", "main", KindMain},
		{"symlink to subdir", "sublink", "main", "main", KindMain},
		{"path through symlink", "link/wt/sub/deep", "main", "main/wt", KindLinked},
		{"symlink into linked", "wtlink", "main", "wt-out", KindLinked},
		{"submodule", "main/libsub", "main/libsub", "main/libsub", KindSubmodule},
		{"submodule worktree", "libwt", "main/libsub", "libwt", KindLinked},
		{"bare repo is outside git", "bare.git", "bare.git", "bare.git", KindNone},
		{"bare repo worktree", "bwt", "bare.git", "bwt", KindLinked},
		{"separate git dir", "sepwt", "sepwt", "sepwt", KindMain},
		{"other repo", "other", "other", "other", KindMain},
		{"plain dir", "plain/inner", "plain/inner", "plain/inner", KindNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Find(j(tc.path))
			if err != nil {
				t.Fatalf("Find(%s): %v", tc.path, err)
			}
			want := Repo{Root: j(tc.root), WorkTree: j(tc.workTree), Kind: tc.kind}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Find(%s) mismatch (-want +got):\n%s", tc.path, diff)
			}
		})
	}
}

func TestFindRelative(t *testing.T) {
	base := fixture(t)
	t.Chdir(filepath.Join(base, "wt-out", "sub"))
	for _, p := range []string{"", ".", "deep", "../../main/sub"} {
		got, err := Root(p)
		if err != nil {
			t.Fatalf("Root(%q): %v", p, err)
		}
		if want := filepath.Join(base, "main"); got != want {
			t.Errorf("Root(%q) = %s, want %s", p, got, want)
		}
	}
}

func TestFindErrors(t *testing.T) {
	base := t.TempDir()
	writeFile(t, filepath.Join(base, "bad", ".git"), "not a git file\n")
	writeFile(t, filepath.Join(base, "gone", ".git"), "gitdir: ../nowhere/.git/worktrees/x\n")
	writeFile(t, filepath.Join(base, "badcommon", ".git"), "gitdir: gd\n")
	writeFile(t, filepath.Join(base, "badcommon", "gd", "commondir"), "\n")
	tests := []struct {
		name, path string
		want       error
	}{
		{"missing path", "missing", os.ErrNotExist},
		{"malformed .git file", "bad", ErrBadGitFile},
		{"gitdir does not exist", "gone", os.ErrNotExist},
		{"empty commondir", "badcommon", ErrBadGitFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Find(filepath.Join(base, tc.path))
			if !errors.Is(err, tc.want) {
				t.Errorf("Find(%s) = %+v, %v; want error %v", tc.path, got, err, tc.want)
			}
		})
	}
}

// TestOneDirPerProject checks the point of it all: every path of one
// project gives one memory directory, and different projects different ones.
func TestOneDirPerProject(t *testing.T) {
	base := fixture(t)
	groups := [][]string{
		{"main", "main/sub/deep", "main/sub/deep/file.txt", "wt-out", "wt-out/sub/deep",
			"main/wt", "main/wt/sub", "link", "sublink", "wtlink", "link/wt"},
		{"main/libsub", "libwt"},
		{"bare.git", "bwt"},
		{"other"},
		{"plain"},
		{"plain/inner"},
	}
	getenv := fakeEnv(map[string]string{"HOME": filepath.Join(base, "home")})
	owner := map[string]int{}
	for gi, group := range groups {
		for _, p := range group {
			root, err := Root(filepath.Join(base, filepath.FromSlash(p)))
			if err != nil {
				t.Fatalf("Root(%s): %v", p, err)
			}
			loc, err := Resolve(Options{Root: root, Getenv: getenv})
			if err != nil {
				t.Fatalf("Resolve(%s): %v", root, err)
			}
			if prev, ok := owner[loc.Dir]; ok && prev != gi {
				t.Errorf("%s shares memory dir %s with group %d, want its own", p, loc.Dir, prev)
			}
			owner[loc.Dir] = gi
		}
	}
	if len(owner) != len(groups) {
		t.Errorf("got %d memory dirs for %d projects: %v", len(owner), len(groups), owner)
	}
}

func TestGitConfig(t *testing.T) {
	tests := []struct {
		name, in, worktree string
		bare, err          bool
	}{
		{name: "submodule", in: "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../../../libsub\n", worktree: "../../../libsub"},
		{name: "bare", in: "[core]\n\tbare = true\n", bare: true},
		{name: "bare without value", in: "[core]\n\tbare\n", bare: true},
		{name: "bare as a number", in: "[core]\n\tbare = 1\n", bare: true},
		{name: "case and spacing", in: "[CORE]\n  WorkTree=  /a b  \n", worktree: "/a b"},
		{name: "quoted with escapes", in: "[core]\nworktree = \"/a; b\\\"c\\\\d\" # comment\n", worktree: `/a; b"c\d`},
		{name: "comment ends value", in: "[core]\nworktree = /x ; note\n", worktree: "/x"},
		{name: "other section", in: "[remote \"core\"]\nworktree = /no\n[core \"x\"]\nworktree = /no\n"},
		// git accepts a key on the header line; go-git's decoder does
		// not, which costs only the fallback root.
		{name: "key on header line", in: "[core] worktree = /w\n", err: true},
		{name: "last wins", in: "[core]\nworktree = /a\n[user]\nname = x\n[core]\nworktree = /b\n", worktree: "/b"},
		{name: "unterminated quote", in: "[core]\nworktree = \"/a\n", err: true},
		{name: "bad escape", in: "[core]\nworktree = /a\\q\n", err: true},
		{name: "crlf", in: "[core]\r\n\tworktree = /w\r\n", worktree: "/w"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := GitConfig{Raw: format.New()}
			err := cfg.decode("config", []byte(tc.in))
			if (err != nil) != tc.err {
				t.Fatalf("decode(%q) error = %v, want error %v", tc.in, err, tc.err)
			}
			if got := cfg.Value("core", "worktree"); err == nil && got != tc.worktree {
				t.Errorf("core.worktree of %q = %q, want %q", tc.in, got, tc.worktree)
			}
			if got := cfg.Bool("core", "bare", false); err == nil && got != tc.bare {
				t.Errorf("core.bare of %q = %v, want %v", tc.in, got, tc.bare)
			}
		})
	}
}

// TestConfigWorktree checks that config.worktree counts only with
// extensions.worktreeConfig, and then over the common config.
func TestConfigWorktree(t *testing.T) {
	for _, tc := range []struct {
		name, common, want string
	}{
		{"extension on", "[core]\n\trepositoryformatversion = 1\n\tbare = false\n[extensions]\n\tworktreeConfig = true\n", "/from-worktree"},
		{"extension off", "[core]\n\tbare = false\n\tworktree = /from-common\n", "/from-common"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "config"), tc.common)
			writeFile(t, filepath.Join(dir, "config.worktree"), "[core]\n\tworktree = /from-worktree\n")
			cfg, err := GitDirs{GitDir: dir, CommonDir: dir}.Config()
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Value("core", "worktree"); got != tc.want {
				t.Errorf("core.worktree = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseGitFile(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: "gitdir: /a/b\n", want: "/a/b"},
		{in: "gitdir: ../.git/modules/x\r\n", want: "../.git/modules/x"},
		{in: "gitdir: a b", want: "a b"},
		{in: "gitdir:/a\n", err: true},
		{in: "gitdir: \n", err: true},
		{in: "gitdir: a\nb\n", err: true},
		{in: "", err: true},
		{in: "GITDIR: /a\n", err: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseGitFile([]byte(tc.in))
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("parseGitFile(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

// BenchmarkFind measures Find from a deep directory of a linked worktree,
// the slowest common case; it runs at the start of every command.
func BenchmarkFind(b *testing.B) {
	base := fixture(b)
	p := filepath.Join(base, "link", "wt", "sub", "deep")
	for b.Loop() {
		if _, err := Find(p); err != nil {
			b.Fatal(err)
		}
	}
}
