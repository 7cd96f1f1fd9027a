package agentsetup

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/untrusted"
)

// ClaudeManagedSettings is Claude Code's managed (policy) settings file on
// Linux; the highest settings level, which no one else can override.
const ClaudeManagedSettings = "/etc/claude-code/managed-settings.json"

// ClaudeMemory is where Claude Code keeps a project's auto memory and
// whether it loads it, as Claude Code 2.1.332 resolves them (its cli
// code, functions Wg, Bu, Kg and RI):
//
//   - autoMemoryDirectory: the first level that sets it, in the order
//     policy (managed settings), flag (--settings), local
//     (.claude/settings.local.json), project (.claude/settings.json),
//     user (~/.claude/settings.json); local and project count only in a
//     workspace whose trust dialog was accepted. "~/" is expanded; a
//     value that is not absolute, shorter than 3 characters or holds NUL
//     falls back to the default. The default is
//     <config dir>/projects/<slug>/memory (CLAUDE_CODE_REMOTE_MEMORY_DIR
//     replaces the config dir).
//   - enabled: CLAUDE_CODE_DISABLE_AUTO_MEMORY set to a true value turns
//     auto memory off and a false value forces it on; else the merged
//     settings' autoMemoryEnabled (policy over local over project over
//     user), true when no level sets it.
//
// The --settings flag is a command-line argument memdir cannot see.
type ClaudeMemory struct {
	Dir string
	// DirFrom is the settings file that named Dir; "" for the default.
	DirFrom string
	// DirLevel is that file's level: policy, local, project or user.
	DirLevel string
	Enabled  bool
	// DisabledBy names what turned auto memory off: the environment
	// variable, or a settings file (and its level in DisabledLevel).
	DisabledBy, DisabledLevel string
	// EnvFile is the settings file whose "env" block sets
	// CLAUDE_CODE_DISABLE_AUTO_MEMORY, when one does.
	EnvFile string
}

// claudeLevel is one settings file Claude Code reads, with its level.
type claudeLevel struct {
	level, path string
	trusted     bool // needs workspace trust to count for autoMemoryDirectory
}

// claudeLevels lists Claude's settings files for the project, highest
// precedence first.
func claudeLevels(o Options) []claudeLevel {
	managed := o.ManagedSettings
	if managed == "" {
		managed = ClaudeManagedSettings
	}
	return []claudeLevel{
		{level: "policy", path: managed},
		{level: "local", path: filepath.Join(o.Root, ".claude", "settings.local.json"), trusted: true},
		{level: "project", path: filepath.Join(o.Root, ".claude", "settings.json"), trusted: true},
		{level: "user", path: filepath.Join(claudeConfigDir(o), "settings.json")},
	}
}

// claudeConfigDir is CLAUDE_CONFIG_DIR, else ~/.claude.
func claudeConfigDir(o Options) string {
	if d := o.env("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(o.Home, ".claude")
}

func (o Options) env(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// claudeFile is what resolution reads of one settings file.
type claudeFile struct {
	Enabled *bool
	Dir     *string
	// DisableEnv is the env block's CLAUDE_CODE_DISABLE_AUTO_MEMORY.
	DisableEnv *string
}

// readClaudeFile reads the keys resolution needs, with the scanner setup
// edits with (comments and trailing commas accepted); a missing or
// broken file reads as not there, as Claude skips it.
func readClaudeFile(path string) (claudeFile, bool) {
	var f claudeFile
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if err != nil {
		return f, false
	}
	src := string(data)
	root, err := parseJSONC(path, src)
	if err != nil || root == nil || root.kind != '{' {
		return f, false
	}
	if it, _ := root.member("autoMemoryEnabled"); it != nil && it.val.kind == 'l' {
		v := src[it.val.start:it.val.end] == "true"
		f.Enabled = &v
	}
	if it, _ := root.member("autoMemoryDirectory"); it != nil && it.val.kind == '"' {
		f.Dir = &it.val.str
	}
	if env, _ := root.member("env"); env != nil {
		if it, _ := env.val.member("CLAUDE_CODE_DISABLE_AUTO_MEMORY"); it != nil && it.val.kind == '"' {
			f.DisableEnv = &it.val.str
		}
	}
	return f, true
}

// ResolveClaudeMemory works out where Claude Code keeps this project's
// auto memory and whether it loads it.
func ResolveClaudeMemory(o Options) ClaudeMemory {
	cm := ClaudeMemory{Enabled: true}
	trusted := o.TrustAssumed || ClaudeTrusted(o)
	enabledSet := false
	for _, l := range claudeLevels(o) {
		f, ok := readClaudeFile(l.path)
		if !ok {
			continue
		}
		if f.Dir != nil && cm.DirLevel == "" && (!l.trusted || trusted) {
			cm.Dir, cm.DirFrom, cm.DirLevel = expandClaudeDir(*f.Dir, o.Home), l.path, l.level
		}
		if f.Enabled != nil && !enabledSet {
			enabledSet = true
			if !*f.Enabled {
				cm.Enabled, cm.DisabledBy, cm.DisabledLevel = false, l.path, l.level
			}
		}
		if v := f.DisableEnv; v != nil && cm.EnvFile == "" && truthy(*v) {
			cm.EnvFile = l.path
		}
	}
	env := o.env("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
	switch {
	case truthy(env):
		cm.Enabled, cm.DisabledBy, cm.DisabledLevel = false, "CLAUDE_CODE_DISABLE_AUTO_MEMORY", "environment"
	case falsy(env):
		cm.Enabled, cm.DisabledBy, cm.DisabledLevel = true, "", ""
	case cm.EnvFile != "":
		cm.Enabled, cm.DisabledBy, cm.DisabledLevel = false, "CLAUDE_CODE_DISABLE_AUTO_MEMORY", cm.EnvFile
	}
	if cm.Dir == "" {
		base := claudeConfigDir(o)
		if r := o.env("CLAUDE_CODE_REMOTE_MEMORY_DIR"); r != "" {
			base = r
		}
		cm.Dir, cm.DirFrom, cm.DirLevel = filepath.Join(base, "projects", canonical.Slug(o.Root), "memory"), "", ""
	}
	return cm
}

// expandClaudeDir expands "~/" and rejects what Claude rejects (then the
// default applies: "").
func expandClaudeDir(v, home string) string {
	if rest, ok := strings.CutPrefix(v, "~/"); ok {
		v = filepath.Join(home, rest)
	}
	v = strings.TrimRight(v, "/")
	if !filepath.IsAbs(v) || len(v) < 3 || strings.ContainsRune(v, 0) {
		return ""
	}
	return filepath.Clean(v)
}

// truthy and falsy read an environment flag as Claude Code does.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func falsy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

// ClaudeTrusted reports whether Claude Code's trust dialog was accepted
// for the project or a folder above it (~/.claude.json, or
// $CLAUDE_CONFIG_DIR/.claude.json).
func ClaudeTrusted(o Options) bool {
	global := filepath.Join(o.Home, ".claude.json")
	if d := o.env("CLAUDE_CONFIG_DIR"); d != "" {
		global = filepath.Join(d, ".claude.json")
	}
	data, err := untrusted.ReadFile(global, "", 64<<20)
	if err != nil {
		return false
	}
	var g struct {
		Projects map[string]struct {
			Trusted bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if json.Unmarshal(data, &g) != nil {
		return false
	}
	for dir := o.Root; ; dir = filepath.Dir(dir) {
		if g.Projects[dir].Trusted {
			return true
		}
		if dir == filepath.Dir(dir) {
			return false
		}
	}
}

// restoreValue is the value of st's key that the newest backup of file
// holds when it is not setup's: the person's own, which setup replaced.
// ok is false when the newest backup that differs has no such key (setup
// added it) or no backup differs.
func restoreValue(st setting, file string) (string, bool) {
	if !st.takeOver || st.backups == "" {
		return "", false
	}
	es, err := os.ReadDir(st.backups)
	if err != nil {
		return "", false
	}
	suffix := "-" + backupName(file)
	want := render(st.value, "", "")
	es = slices.DeleteFunc(es, func(e os.DirEntry) bool { return !strings.HasSuffix(e.Name(), suffix) })
	// Newest first: by time written, then by the count Apply puts in the
	// names of backups made within one second.
	at := func(e os.DirEntry) (int64, int) {
		var t int64
		if fi, err := e.Info(); err == nil {
			t = fi.ModTime().UnixNano()
		}
		n := 1
		if _, rest, ok := strings.Cut(strings.TrimSuffix(e.Name(), suffix), "-"); ok {
			n, _ = strconv.Atoi(rest)
		}
		return t, n
	}
	slices.SortFunc(es, func(a, b os.DirEntry) int {
		ta, na := at(a)
		tb, nb := at(b)
		return cmp.Or(cmp.Compare(tb, ta), cmp.Compare(nb, na))
	})
	for _, e := range es {
		p := filepath.Join(st.backups, e.Name())
		data, err := untrusted.ReadFile(p, st.backups, untrusted.MaxSettings)
		if err != nil {
			continue
		}
		src := string(data)
		root, err := parseJSONC(p, src)
		if err != nil || root == nil {
			continue
		}
		n := root
		for _, k := range st.path {
			it, _ := n.member(k)
			if it == nil {
				return "", false
			}
			n = it.val
		}
		old := src[n.start:n.end]
		if old == want || n.kind == '"' && st.owned != nil && st.owned(n.str) {
			continue
		}
		return old, true
	}
	return "", false
}

// backupName is the part of a backup's name after its stamp: the file's
// path with separators made "_".
func backupName(path string) string {
	return strings.NewReplacer(string(filepath.Separator), "_", ":", "_").Replace(strings.TrimPrefix(path, string(filepath.Separator)))
}

// WiredProgram is the memdir executable o's agent files run now (the MCP
// entry's command, or the command in Codex's block), "" when they run
// none. Doctor checks that program, and setup keeps it.
func WiredProgram(o Options) string {
	ts, err := targets(o)
	if err != nil {
		return ""
	}
	for _, t := range ts {
		path, err := resolve(t.path, o)
		if err != nil {
			continue
		}
		data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
		if err != nil {
			continue
		}
		switch {
		case t.format == "json" && t.serverPath != nil:
			d, err := newJSONDoc(path, string(data))
			if err != nil {
				continue
			}
			if n := d.lookup(t.serverPath...); n != nil && isMemdirServer(n) {
				return strValue(n, "command")
			}
		case t.format == "toml":
			start, end, ok, err := t.fence.find(path, string(data))
			if err != nil || !ok {
				continue
			}
			for _, line := range strings.Split(string(data)[start:end], "\n") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(line), "command = "); ok {
					if s, err := strconv.Unquote(v); err == nil {
						return s
					}
				}
			}
		}
	}
	return ""
}
