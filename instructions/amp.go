package instructions

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/typesx"
)

// AmpVersion is the Amp release (npm @sourcegraph/amp, code in
// @ampcode/cli-<platform>) whose guidance discovery the amp profile
// follows; testdata/fidelity/amp holds what that release loaded.
const AmpVersion = "0.0.1790142911-g7618fb"

// ampKind is the kind of directory a guidance file was found in, as Amp
// names it; Amp sorts the files by it first.
type ampKind int

const (
	ampSystem ampKind = iota
	ampUser
	ampProject
	ampParent
	ampSubtree
)

var ampKindNames = [...]string{"system", "user", "project", "parent", "subtree"}

// ampDir is one directory Amp looks in.
type ampDir struct {
	path string
	kind ampKind
}

// ampDiscover loads guidance files as Amp does: the workspace root, the
// directories from the working directory up to it, every directory above
// it up to (not including) /, /home or /Users, $XDG_CONFIG_HOME/amp,
// $XDG_CONFIG_HOME and the system directories; in each, the first of the
// profile's names that exists. The files are sorted by kind (system,
// user, project, parent, then the subtree files a --file brings in) and
// path; each is followed by the files it @-mentions, recursively.
// Frontmatter `globs:` leaves a file out unless a --file matches.
func (l *loader) ampDiscover() {
	ws := ampWorkspaceRoot(l.cwd, l.top)
	reads := l.absFiles()
	files := l.ampCandidates(ws, l.ampDirs(ws, reads))
	seen := map[string]bool{}
	for _, f := range files {
		l.ampLoad(f, reads, seen, nil)
	}
}

// ampWorkspaceRoot is Amp's workspace root: the nearest directory from
// cwd up to the repository top holding .amp/settings.json(c), else the top.
func ampWorkspaceRoot(cwd, top string) string {
	if !within(top, cwd) {
		return cwd
	}
	for d := cwd; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".amp", "settings.json")) || exists(filepath.Join(d, ".amp", "settings.jsonc")) {
			return d
		}
		if d == top || filepath.Dir(d) == d {
			return top
		}
	}
}

// ampStop reports the directories where Amp's walk above the workspace
// stops, without looking in them.
func ampStop(d string) bool {
	switch filepath.ToSlash(d) {
	case "/", "", "/home", "/Users", "/proc", "/sys", "/dev":
		return true
	}
	return filepath.Dir(d) == d
}

// ampSystemDirs are Amp's system directories. Amp looks in those of all
// three platforms on every platform; Options.ManagedRoot replaces them.
func (l *loader) ampSystemDirs() []string {
	if l.opts.ManagedRoot != "" {
		return []string{l.env.managed}
	}
	dirs := []string{"/Library/Application Support/ampcode", "/etc/ampcode"}
	if runtime.GOOS == "windows" {
		pd := os.Getenv("ProgramData")
		if pd == "" {
			pd = `C:\ProgramData`
		}
		dirs = append(dirs, filepath.Join(pd, "ampcode"))
	}
	return dirs
}

// ampDirs lists the directories to look in, each once, with its kind.
func (l *loader) ampDirs(ws string, reads []string) []ampDir {
	var out []ampDir
	seen := map[string]bool{}
	add := func(d string, k ampKind) {
		if !seen[d] {
			seen[d] = true
			out = append(out, ampDir{d, k})
		}
	}
	kind := func(d string) ampKind {
		switch {
		case within(ws, d):
			return ampProject
		case within(l.env.config, d):
			return ampUser
		}
		for _, s := range l.ampSystemDirs() {
			if within(s, d) {
				return ampSystem
			}
		}
		return ampParent
	}
	add(ws, ampProject)
	if within(ws, l.cwd) {
		for d := l.cwd; d != ws; d = filepath.Dir(d) {
			add(d, ampProject)
		}
	}
	for d := filepath.Dir(ws); !ampStop(d); d = filepath.Dir(d) {
		add(d, kind(d))
	}
	add(filepath.Join(l.env.config, "amp"), kind(filepath.Join(l.env.config, "amp")))
	add(l.env.config, kind(l.env.config))
	for _, s := range l.ampSystemDirs() {
		add(s, ampSystem)
	}
	// Files the thread touched bring in the directories between them and
	// the workspace root.
	for _, f := range reads {
		for d := filepath.Dir(f); within(ws, d) && d != ws && !seen[d]; d = filepath.Dir(d) {
			add(d, ampSubtree)
		}
	}
	return out
}

// ampCandidates picks the first existing name of each directory and
// sorts the picks as Amp does: by kind, then by path.
func (l *loader) ampCandidates(ws string, dirs []ampDir) []File {
	type pick struct {
		path string
		kind ampKind
	}
	var picks []pick
	for _, d := range dirs {
		for _, n := range l.p.ProjectNames {
			if p := filepath.Join(d.path, n); exists(p) {
				picks = append(picks, pick{p, d.kind})
				for _, other := range l.p.ProjectNames {
					if q := filepath.Join(d.path, other); other != n && exists(q) && !sameName(q, p) {
						l.add(File{Path: q, Scope: ampScope(d.kind), Kind: KindInstructions, Status: StatusShadowed,
							Reason: fmt.Sprintf("%s wins: Amp loads the first of %s", n, strings.Join(l.p.ProjectNames, ", "))})
					}
				}
				break
			}
		}
	}
	sort.SliceStable(picks, func(i, j int) bool {
		if picks[i].kind != picks[j].kind {
			return picks[i].kind < picks[j].kind
		}
		return ampLess(picks[i].path, picks[j].path)
	})
	out := make([]File, len(picks))
	for i, p := range picks {
		out[i] = File{Path: p.path, Scope: ampScope(p.kind), Kind: KindInstructions, OnDemand: p.kind == ampSubtree,
			Reason: "Amp: " + ampKindNames[p.kind]}
		if p.kind == ampParent {
			out[i].Reason += " directory above the workspace root " + ws
		}
	}
	return out
}

// sameName reports whether two paths name one file (a case-insensitive
// file system answers for every spelling).
func sameName(a, b string) bool {
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	return ea == nil && eb == nil && os.SameFile(fa, fb)
}

func ampScope(k ampKind) typesx.Scope {
	switch k {
	case ampSystem:
		return typesx.ScopeManaged
	case ampUser:
		return typesx.ScopeUser
	}
	return typesx.ScopeProject
}

// ampLess orders paths as Amp's localeCompare of file URIs does for the
// paths it meets: letters compare without regard to case first, and on a
// tie lower case comes first.
func ampLess(a, b string) bool {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if la != lb {
		return la < lb
	}
	return a > b
}

// absFiles returns the --file paths made absolute.
func (l *loader) absFiles() []string {
	var out []string
	for _, f := range l.opts.Files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(l.cwd, f)
		}
		out = append(out, filepath.Clean(f))
	}
	return out
}

// ampFrontmatter is Amp's pattern: a block between --- lines at the very
// start, followed by a newline.
var ampFrontmatter = lazyre.New(`^---\s*\n([\s\S]*?)\n---\s*\n([\s\S]*)$`)

// ampSplit returns a guidance file's globs and text as Amp reads them:
// frontmatter removed and white space trimmed. Frontmatter that is not a
// YAML mapping leaves the whole file as text.
func ampSplit(data string) (globs []string, content string, note string) {
	m := ampFrontmatter().FindStringSubmatch(data)
	if m == nil {
		return nil, strings.TrimSpace(data), ""
	}
	var v any
	if err := yaml.Unmarshal([]byte(strings.TrimSpace(m[1])), &v); err != nil {
		return nil, strings.TrimSpace(data), "frontmatter is not valid YAML: Amp loads the file whole"
	}
	fm, _ := v.(map[string]any)
	switch g := fm["globs"].(type) {
	case string:
		if g != "" {
			globs = []string{g}
		}
	case []any:
		for _, x := range g {
			if s, ok := x.(string); ok {
				globs = append(globs, s)
			}
		}
	}
	return globs, strings.TrimSpace(m[2]), ""
}
