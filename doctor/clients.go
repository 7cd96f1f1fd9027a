package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/agentsetup"
	"github.com/memdir/memdir/canonical"
)

func (o Options) env(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// readJSON decodes a client's settings file into v; a missing or
// unreadable file leaves v as it is.
func readJSON(path string, v any) bool {
	data, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(data, v) == nil
}

// claudeSettings is what doctor reads of a Claude Code settings file.
type claudeSettings struct {
	Enabled *bool  `json:"autoMemoryEnabled"`
	Dir     string `json:"autoMemoryDirectory"`
	Hooks   struct {
		SessionStart []struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"SessionStart"`
	} `json:"hooks"`
}

// memoryHook reports whether the settings' session-start hooks load
// memdir's MEMORY.md.
func (s claudeSettings) memoryHook() bool {
	for _, g := range s.Hooks.SessionStart {
		for _, h := range g.Hooks {
			f := strings.Fields(h.Command)
			if len(f) > 1 && filepath.Base(strings.Trim(f[0], "'")) == "memdir" && f[1] == "context" && !slices.Contains(f, "--no-memory") {
				return true
			}
		}
	}
	return false
}

// claudeChecks: workspace trust (Claude ignores a project's permission
// rules until it is given) and one memory.
func claudeChecks(o Options, user bool) []Check {
	cfg := o.env("CLAUDE_CONFIG_DIR")
	claudeDir, global := filepath.Join(o.Home, ".claude"), filepath.Join(o.Home, ".claude.json")
	if cfg != "" {
		claudeDir, global = cfg, filepath.Join(cfg, ".claude.json")
	}
	var out []Check
	if !user {
		var g struct {
			Projects map[string]struct {
				Trusted bool `json:"hasTrustDialogAccepted"`
			} `json:"projects"`
		}
		readJSON(global, &g)
		c := Check{Agent: "claude", Name: "trust", Status: OK, Detail: "the workspace is trusted"}
		if !g.Projects[o.Root].Trusted {
			c.Status = Fail
			c.Detail = "Claude Code ignores the project's permission rules until the workspace is trusted, so memdir's tools ask (and claude -p refuses them)"
			c.Fix = "run `claude` in " + o.Root + " once and accept the trust dialog"
		}
		out = append(out, c)
	}
	return append(out, claudeOneMemory(o, claudeDir))
}

// claudeOneMemory: Claude Code's auto memory is memdir's directory, or off
// with memdir's hook carrying MEMORY.md; MEMORY.md reaches the model once.
func claudeOneMemory(o Options, claudeDir string) Check {
	files := []string{filepath.Join(claudeDir, "settings.json"), filepath.Join(o.Root, ".claude", "settings.json"),
		filepath.Join(o.Root, ".claude", "settings.local.json")}
	enabled := o.env("CLAUDE_CODE_DISABLE_AUTO_MEMORY") != "1"
	dir := filepath.Join(claudeDir, "projects", canonical.Slug(o.Root), "memory")
	var hooked []string
	for i, f := range files {
		var s claudeSettings
		if !readJSON(f, &s) {
			continue
		}
		if s.Enabled != nil {
			enabled = *s.Enabled
		}
		if s.Dir != "" && i != 1 { // Claude ignores it in the committed settings.json
			dir = expandHome(s.Dir, o.Home)
		}
		if s.memoryHook() {
			hooked = append(hooked, f)
		}
	}
	c := Check{Agent: "claude", Name: "one-memory", Status: OK}
	same := filepath.Clean(dir) == filepath.Clean(o.MemoryDir)
	switch {
	case enabled && !same:
		c.Status = Fail
		c.Detail = fmt.Sprintf("two memories: Claude Code's auto memory is %s, memdir's is %s", dir, o.MemoryDir)
		if n := markdownFiles(dir); n > 0 {
			c.Detail += fmt.Sprintf("; %d memory files there that memdir does not see (move them: mv %s/*.md %s/ && memdir index --rebuild)", n, dir, o.MemoryDir)
		}
		c.Fix = "memdir setup claude"
	case enabled && len(hooked) > 0:
		c.Status = Fail
		c.Detail = "MEMORY.md reaches the model twice: Claude Code loads it from " + dir + " and the session-start hook in " + hooked[0] + " adds it again"
		c.Fix = "memdir setup claude"
		if hooked[0] == files[0] {
			c.Fix = "memdir setup claude --user --undo"
		}
	case enabled:
		c.Detail = "Claude Code's auto memory is memdir's directory " + dir
	case len(hooked) == 0:
		c.Status = Fail
		c.Detail = "Claude Code's auto memory is off and no session-start hook loads memdir's MEMORY.md"
		c.Fix = "memdir setup claude"
	default:
		c.Detail = "Claude Code's auto memory is off; memdir's session-start hook carries MEMORY.md"
	}
	return c
}

func expandHome(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}

// markdownFiles counts the memory files in dir.
func markdownFiles(dir string) int {
	es, _ := os.ReadDir(dir)
	n := 0
	for _, e := range es {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			n++
		}
	}
	return n
}

// codexChecks: the project is trusted (else Codex reads none of .codex/)
// and each of setup's hooks was reviewed as it is now.
func codexChecks(o Options, user bool) []Check {
	so := setupOptions(o, "codex", user)
	var out []Check
	if !user {
		c := Check{Agent: "codex", Name: "trust", Status: OK, Detail: "the project is trusted"}
		if ok, err := agentsetup.CodexProjectTrusted(so, o.Root); err != nil || !ok {
			c.Status = Fail
			c.Detail = "Codex reads a project's .codex/ files only when the project is trusted"
			c.Fix = "run `codex` in " + o.Root + " once and trust the project"
		}
		out = append(out, c)
	}
	c := Check{Agent: "codex", Name: "hooks-reviewed", Status: OK, Detail: "memdir's hooks are reviewed"}
	hooks, err := agentsetup.CodexHooks(so)
	var waiting []string
	for _, h := range hooks {
		if !h.Reviewed() {
			waiting = append(waiting, h.Event)
		}
	}
	switch {
	case err != nil:
		c.Status, c.Detail, c.Fix = Fail, err.Error(), "fix the file by hand"
	case len(waiting) > 0:
		c.Status = Fail
		c.Detail = "Codex runs no hook until you review it, and codex exec skips it without a word; not reviewed (or changed since): " + strings.Join(waiting, ", ")
		c.Fix = "run `codex` here, type /hooks and trust memdir's hooks"
	}
	return append(out, c)
}

// geminiTrust: Gemini CLI reads a project's settings only in a trusted
// folder (trustedFolders.json: TRUST_FOLDER on the folder or an ancestor,
// TRUST_PARENT on a folder inside the one trusted).
func geminiTrust(o Options) Check {
	path := o.env("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if path == "" {
		home := o.Home
		if h := o.env("GEMINI_CLI_HOME"); h != "" {
			home = h
		}
		path = filepath.Join(home, ".gemini", "trustedFolders.json")
	}
	var folders map[string]string
	readJSON(path, &folders)
	c := Check{Agent: "gemini", Name: "trust", Status: Fail,
		Detail: "Gemini CLI reads the project's settings (memdir's server and hooks) only in a trusted folder",
		Fix:    "run `gemini` in " + o.Root + " once and trust the folder"}
	for p, level := range folders {
		if level == "TRUST_PARENT" {
			p = filepath.Dir(p)
		}
		if (level == "TRUST_FOLDER" || level == "TRUST_PARENT") && within(p, o.Root) {
			c.Status, c.Detail, c.Fix = OK, "the folder is trusted ("+path+")", ""
		}
	}
	return c
}

func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
