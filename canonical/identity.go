package canonical

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
)

// IdentityFile is where, inside a memory directory, the project identity
// its first sync used is recorded, so that a project whose root has
// moved or gone keeps its place in the sync remote.
const IdentityFile = ".memdir/identity"

// PathIdentityPrefix starts the identity of a project without a usable
// remote: "path:" and its canonical root.
const PathIdentityPrefix = "path:"

// Identity returns the stable identity of the project whose canonical
// root is root: the normalised URL of its remote "origin", else of its
// first remote by name, else "path:" and the root. The same repository
// cloned at different paths, on different machines, under different user
// names, has one identity. The config is read as data (go-git's decoder,
// through GitDirs.Config), never by running git: the repository may be
// someone else's.
func Identity(root string) (string, error) {
	d, found, err := FindGitDirs(root)
	if err != nil {
		return "", err
	}
	if found {
		cfg, err := d.Config()
		if err != nil {
			return "", fmt.Errorf("identity of %s: %w", root, err)
		}
		if id, ok := remoteIdentity(cfg); ok {
			return id, nil
		}
	}
	return PathIdentityPrefix + root, nil
}

// remoteIdentity is the identity named by the config's remotes: origin
// first, then the others in name order; a remote whose URL does not
// normalise is skipped.
func remoteIdentity(cfg GitConfig) (string, bool) {
	if cfg.Raw == nil || !cfg.Raw.HasSection("remote") {
		return "", false
	}
	var names []string
	urls := map[string]string{}
	for _, sub := range cfg.Raw.Section("remote").Subsections {
		if u := sub.Option("url"); u != "" {
			if _, seen := urls[sub.Name]; !seen {
				names = append(names, sub.Name)
			}
			urls[sub.Name] = u
		}
	}
	slices.SortStableFunc(names, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "origin":
			return -1
		case b == "origin":
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, n := range names {
		if id, ok := NormalizeRemoteURL(urls[n]); ok {
			return id, true
		}
	}
	return "", false
}

// defaultPorts are the ports a URL may name without changing the remote.
var defaultPorts = sync.OnceValue(func() map[string]string {
	return map[string]string{"ssh": "22", "git+ssh": "22", "ssh+git": "22", "https": "443", "http": "80", "git": "9418"}
})

// NormalizeRemoteURL turns a git remote URL into a project identity:
// host (lowercase, without user, password or default port) and path
// (without a leading or trailing slash or a .git suffix), so that
// git@github.com:acme/app.git, https://github.com/acme/app and
// ssh://git@github.com/acme/app.git are all github.com/acme/app. A local
// remote (file:// or a path) gives "file:" and its cleaned path. ok is
// false for text that is not a remote URL. User information is never
// kept: a token in a URL does not reach the identity.
func NormalizeRemoteURL(raw string) (id string, ok bool) {
	s := strings.TrimSpace(raw)
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == ' ' }) {
		return "", false
	}
	if strings.Contains(s, "::") && !strings.Contains(s, "://") {
		return "", false // a remote helper (ext::, fd::): no identity
	}
	if i := strings.Index(s, "://"); i > 0 {
		return normalizeURL(s)
	}
	if host, p, ok := splitSCP(s); ok {
		return joinIdentity(host, p)
	}
	return localIdentity(s)
}

// normalizeURL handles scheme://[user@]host[:port]/path.
func normalizeURL(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "file" {
		return localIdentity(u.Path)
	}
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && port != defaultPorts()[scheme] {
		host += ":" + port
	}
	return joinIdentity(host, u.Path)
}

// splitSCP reads git's scp-like syntax, [user@]host:path, where the colon
// comes before any slash.
func splitSCP(s string) (host, p string, ok bool) {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return "", "", false
	}
	if slash := strings.IndexByte(s, '/'); slash >= 0 && slash < colon {
		return "", "", false
	}
	host = s[:colon]
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	host = strings.Trim(host, "[]")
	return strings.ToLower(host), s[colon+1:], host != ""
}

// joinIdentity is host/path with the path cleaned.
func joinIdentity(host, p string) (string, bool) {
	if host == "" || strings.ContainsAny(host, "/@\\") {
		return "", false
	}
	p = cleanRepoPath(p)
	if p == "" {
		return "", false
	}
	return host + "/" + p, true
}

// localIdentity is "file:" and the cleaned path of a local remote.
func localIdentity(p string) (string, bool) {
	p = cleanRepoPath(filepath.ToSlash(p))
	if p == "" {
		return "", false
	}
	return "file:/" + p, true
}

// cleanRepoPath drops leading and trailing slashes, a .git suffix, empty
// and "." segments; ".." segments are resolved as far as they go.
func cleanRepoPath(p string) string {
	p = strings.Trim(path.Clean("/"+p), "/")
	for {
		q := strings.TrimSuffix(strings.TrimRight(p, "/"), ".git")
		if q == p {
			break
		}
		p = q
	}
	return strings.Trim(p, "/")
}

// RecordedIdentity returns the identity recorded in the memory directory
// dir, or "" when it records none.
func RecordedIdentity(dir string) (string, error) {
	data, err := untrusted.ReadFile(filepath.Join(dir, filepath.FromSlash(IdentityFile)), "", untrusted.MaxGit)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read identity of %s: %w", dir, err)
	}
	return strings.TrimSpace(string(data)), nil
}

// RecordIdentity records id in the memory directory dir. Callers hold
// the directory's lock.
func RecordIdentity(dir, id string) error {
	name := filepath.Join(dir, filepath.FromSlash(IdentityFile))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("record identity of %s: %w", dir, err)
	}
	if err := atomicfile.WriteFile(name, []byte(id+"\n"), 0o644); err != nil {
		return fmt.Errorf("record identity of %s: %w", dir, err)
	}
	return nil
}
