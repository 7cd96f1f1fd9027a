package instructions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// env expands profile paths: "~/", "{managed}" and "{agent}".
type env struct {
	home, managed, agent string
	// config is $XDG_CONFIG_HOME (Options.ConfigHome), else ~/.config.
	config string
}

func newEnv(p Profile, opts Options, realPath func(string) string) (env, error) {
	e := env{home: opts.UserHome, managed: opts.ManagedRoot, agent: opts.AgentID}
	if e.home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return env{}, fmt.Errorf("home directory: %w", err)
		}
		e.home = h
	}
	if e.managed == "" {
		e.managed = p.ManagedDir
	}
	if e.agent == "" {
		e.agent = "agent"
	}
	e.home = realPath(e.home)
	e.config = opts.ConfigHome
	if e.config == "" {
		e.config = filepath.Join(e.home, ".config")
	}
	e.config = realPath(e.config)
	if e.managed != "" {
		e.managed = realPath(e.managed)
	}
	return e, nil
}

// expand turns a profile path into an absolute one; a relative path is
// joined to dir. It returns "" for a {managed} path with no managed
// directory. "{config}" is the user's configuration directory.
func (e env) expand(p, dir string) string {
	p = strings.ReplaceAll(p, "{agent}", e.agent)
	switch {
	case strings.HasPrefix(p, "{config}"):
		return filepath.Join(e.config, filepath.FromSlash(strings.TrimPrefix(p, "{config}")))
	case p == "~" || strings.HasPrefix(p, "~/"):
		return filepath.Join(e.home, filepath.FromSlash(strings.TrimPrefix(p[1:], "/")))
	case strings.HasPrefix(p, "{managed}"):
		if e.managed == "" {
			return ""
		}
		return filepath.Join(e.managed, filepath.FromSlash(strings.TrimPrefix(p, "{managed}")))
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(dir, filepath.FromSlash(p))
}

// isUserPath reports whether a profile path lives outside the project.
func isUserPath(p string) bool {
	return p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "{managed}") || strings.HasPrefix(p, "{config}") || filepath.IsAbs(p)
}

// realPath resolves symlinks, falling back to the cleaned absolute path.
func realPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// within reports whether p is dir or inside it.
func within(dir, p string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// chain returns the directories from top down to leaf, both included; leaf
// must be within top.
func chain(top, leaf string) []string {
	var dirs []string
	for d := leaf; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == top || filepath.Dir(d) == d {
			break
		}
	}
	for i, j := 0, len(dirs)-1; i < j; i, j = i+1, j-1 {
		dirs[i], dirs[j] = dirs[j], dirs[i]
	}
	return dirs
}

// findWorkTree returns the nearest directory from cwd up to root that holds
// a .git entry (a directory for a main worktree, a file for a linked one),
// or root when there is none.
func findWorkTree(cwd, root string) string {
	for _, d := range reverse(chain(root, cwd)) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
	}
	return root
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

// isText reports whether data looks like text: valid UTF-8 with no NUL in
// its first 8 KiB.
func isText(data []byte) bool {
	head := data
	if len(head) > 8192 {
		head = head[:8192]
		// Do not let a cut multi-byte rune fail the check.
		for i := 0; i < utf8.UTFMax && !utf8.Valid(head); i++ {
			head = head[:len(head)-1]
		}
	}
	for _, c := range head {
		if c == 0 {
			return false
		}
	}
	return utf8.Valid(head)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// cutAtLine returns the longest prefix of s of at most limit bytes that ends
// at a line boundary.
func cutAtLine(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	if i := strings.LastIndexByte(s[:limit], '\n'); i >= 0 {
		return s[:i+1]
	}
	return ""
}
