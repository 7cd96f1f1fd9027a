package canonical

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestNormalizeRemoteURL(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"git@github.com:acme/app.git", "github.com/acme/app", true},
		{"https://github.com/acme/app", "github.com/acme/app", true},
		{"ssh://git@github.com/acme/app.git", "github.com/acme/app", true},
		{"https://user:token@github.com/acme/app/", "github.com/acme/app", true},
		{"https://GitHub.COM/acme/app.git", "github.com/acme/app", true},
		{"ssh://git@github.com:22/acme/app.git", "github.com/acme/app", true},
		{"https://github.com:443/acme/app", "github.com/acme/app", true},
		{"ssh://git@git.example.com:2222/acme/app.git", "git.example.com:2222/acme/app", true},
		{"git://github.com/acme/app.git", "github.com/acme/app", true},
		{"github.com:acme/app", "github.com/acme/app", true},
		{"https://gitlab.com/group/sub/app.git", "gitlab.com/group/sub/app", true},
		{"file:///srv/git/app.git", "file:/srv/git/app", true},
		{"/srv/git/app.git/", "file:/srv/git/app", true},
		{"../app.git", "file:/app", true},
		{"", "", false},
		{"ext::sh -c touch% /tmp/x", "", false},
		{"https://github.com/", "", false},
		{"https://exa mple.com/a", "", false},
		{"git@host:a\nb", "", false},
	} {
		got, ok := NormalizeRemoteURL(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormalizeRemoteURL(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// gitRepo makes a repository at dir with the given remotes (name, url
// pairs) written by git itself.
func gitRepo(t *testing.T, remotes ...string) string {
	t.Helper()
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	gitIn(t, dir, "init", "-q")
	for i := 0; i+1 < len(remotes); i += 2 {
		gitIn(t, dir, "remote", "add", remotes[i], remotes[i+1])
	}
	return dir
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func TestIdentity(t *testing.T) {
	for _, tc := range []struct {
		name    string
		remotes []string
		want    string // "" means the path identity
	}{
		{"origin", []string{"origin", "git@github.com:acme/app.git"}, "github.com/acme/app"},
		{"fork: origin wins over upstream", []string{"upstream", "https://github.com/acme/app", "origin", "git@github.com:me/app.git"}, "github.com/me/app"},
		{"two remotes, no origin: first by name", []string{"zeta", "https://example.com/z/app", "alpha", "https://example.com/a/app"}, "example.com/a/app"},
		{"no remote", nil, ""},
		{"file remote", []string{"origin", "file:///srv/git/app.git"}, "file:/srv/git/app"},
		{"unusable origin falls back to the next", []string{"origin", "ext::sh", "backup", "https://example.com/b/app"}, "example.com/b/app"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := gitRepo(t, tc.remotes...)
			got, err := Identity(root)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == "" {
				want = PathIdentityPrefix + root
			}
			if got != want {
				t.Errorf("Identity = %q, want %q", got, want)
			}
		})
	}
}

func TestIdentityOutsideGit(t *testing.T) {
	root := t.TempDir()
	got, err := Identity(root)
	if err != nil || got != PathIdentityPrefix+root {
		t.Errorf("Identity = %q, %v; want the path identity", got, err)
	}
}

func TestRecordIdentity(t *testing.T) {
	dir := t.TempDir()
	if got, err := RecordedIdentity(dir); got != "" || err != nil {
		t.Fatalf("RecordedIdentity of a fresh dir = %q, %v", got, err)
	}
	if err := RecordIdentity(dir, "github.com/acme/app"); err != nil {
		t.Fatal(err)
	}
	if got, err := RecordedIdentity(dir); got != "github.com/acme/app" || err != nil {
		t.Errorf("RecordedIdentity = %q, %v", got, err)
	}
}

// FuzzNormalizeRemoteURL checks what an identity may never hold, whatever
// the URL: credentials, a .git suffix, a trailing slash, an upper-case
// host, control characters; and that it is stable when read again as an
// https URL.
func FuzzNormalizeRemoteURL(f *testing.F) {
	for _, s := range []string{
		"git@github.com:acme/app.git", "https://github.com/acme/app", "ssh://git@github.com/acme/app.git",
		"https://user:token@github.com/acme/app/", "file:///srv/app.git", "/srv/app", "host:~u/r",
		"https://[::1]:8080/a/b.git", "git@[::1]:a.git", "https://a@b@c/d", "x://%zz/a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := NormalizeRemoteURL(s)
		if !ok {
			return
		}
		if strings.HasPrefix(id, "file:/") {
			return
		}
		host, p, _ := strings.Cut(id, "/")
		if strings.Contains(host, "@") || host != strings.ToLower(host) || host == "" {
			t.Fatalf("%q: host %q", s, host)
		}
		if strings.HasSuffix(id, ".git") || strings.HasSuffix(id, "/") || p == "" {
			t.Fatalf("%q: path %q", s, id)
		}
		if strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("%q: control character in %q", s, id)
		}
		if u, err := urlUser(s); err == nil && u != "" && strings.Contains(id, u+"@") {
			t.Fatalf("%q: user info kept in %q", s, id)
		}
	})
}

// urlUser is the user information of an scheme URL, found by hand.
func urlUser(s string) (string, error) {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return "", nil
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		return rest[:at], nil
	}
	return "", nil
}
