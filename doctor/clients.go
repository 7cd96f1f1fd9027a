package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/agentsetup"
	"github.com/memdir/memdir/untrusted"
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
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	return err == nil && json.Unmarshal(data, v) == nil
}

// claudeSettings is what doctor reads of a Claude Code settings file.
type claudeSettings struct {
	Hooks struct {
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
// Where Claude keeps its memory, and whether it loads it, is resolved as
// setup resolves it (agentsetup.ResolveClaudeMemory), as in a trusted
// workspace: missing trust is the trust check's finding.
func claudeOneMemory(o Options, claudeDir string) Check {
	files := []string{filepath.Join(claudeDir, "settings.json"), filepath.Join(o.Root, ".claude", "settings.json"),
		filepath.Join(o.Root, ".claude", "settings.local.json")}
	so := setupOptions(o, "claude", false)
	so.TrustAssumed = true
	cm := agentsetup.ResolveClaudeMemory(so)
	var hooked []string
	for _, f := range files {
		var s claudeSettings
		if readJSON(f, &s) && s.memoryHook() {
			hooked = append(hooked, f)
		}
	}
	c := Check{Agent: "claude", Name: "one-memory", Status: OK}
	same := filepath.Clean(cm.Dir) == filepath.Clean(o.MemoryDir)
	switch {
	case cm.Enabled && !same:
		c.Status = Fail
		c.Detail = fmt.Sprintf("two memories: Claude Code's auto memory is %s, memdir's is %s", cm.Dir, o.MemoryDir)
		if cm.DirFrom != "" {
			c.Detail += fmt.Sprintf(" (autoMemoryDirectory in %s, the %s settings)", cm.DirFrom, cm.DirLevel)
		}
		if n := markdownFiles(cm.Dir); n > 0 {
			c.Detail += fmt.Sprintf("; %d memory files there that memdir does not see (setup brings them in)", n)
		}
		c.Fix = "memdir setup claude"
		if cm.DirLevel == "policy" {
			c.Fix = "managed settings " + cm.DirFrom + " name autoMemoryDirectory, which no other file overrides: ask whoever manages Claude Code here, or run: memdir setup claude --user (memdir's hook then carries MEMORY.md)"
		}
	case cm.Enabled && len(hooked) > 0:
		c.Status = Fail
		c.Detail = "MEMORY.md reaches the model twice: Claude Code loads it from " + cm.Dir + " and the session-start hook in " + hooked[0] + " adds it again"
		c.Fix = "memdir setup claude"
		if hooked[0] == files[0] {
			c.Fix = "memdir setup claude --user --undo"
		}
	case cm.Enabled:
		c.Detail = "Claude Code's auto memory is memdir's directory " + cm.Dir
	case len(hooked) == 0:
		c.Status = Fail
		c.Detail = "Claude Code's auto memory is off (" + disabledBy(cm) + ") and no session-start hook loads memdir's MEMORY.md"
		c.Fix = disabledFix(o, cm)
	default:
		c.Detail = "Claude Code's auto memory is off; memdir's session-start hook carries MEMORY.md"
	}
	return c
}

// disabledBy says what turned Claude's auto memory off.
func disabledBy(cm agentsetup.ClaudeMemory) string {
	switch cm.DisabledLevel {
	case "environment":
		return "CLAUDE_CODE_DISABLE_AUTO_MEMORY is set in the environment"
	case "policy", "local", "project", "user":
		return fmt.Sprintf("autoMemoryEnabled is false in %s, the %s settings", cm.DisabledBy, cm.DisabledLevel)
	}
	return fmt.Sprintf("CLAUDE_CODE_DISABLE_AUTO_MEMORY is set in the env block of %s", cm.DisabledLevel)
}

// disabledFix is the step that turns auto memory back on: setup where it
// owns the setting that wins; else the exact line or key to remove.
func disabledFix(o Options, cm agentsetup.ClaudeMemory) string {
	switch cm.DisabledLevel {
	case "local", "project", "user":
		return "memdir setup claude"
	case "policy":
		return "managed settings " + cm.DisabledBy + " turn auto memory off: ask whoever manages Claude Code here, or run: memdir setup claude --user (memdir's hook then carries MEMORY.md)"
	case "environment":
		if where := envLine(o.Home, "CLAUDE_CODE_DISABLE_AUTO_MEMORY"); where != "" {
			return "remove " + where + ", then start a new shell (or run: unset CLAUDE_CODE_DISABLE_AUTO_MEMORY)"
		}
		return "unset CLAUDE_CODE_DISABLE_AUTO_MEMORY, and remove the line that sets it from your shell's startup file (~/.bashrc, ~/.zshrc, ~/.profile) or the service that starts Claude Code"
	}
	return `remove "CLAUDE_CODE_DISABLE_AUTO_MEMORY" from the "env" block of ` + cm.DisabledLevel
}

// shellFiles are where an exported variable likely lives.
var shellFiles = []string{".bashrc", ".bash_profile", ".profile", ".zshrc", ".zshenv", ".zprofile", ".config/fish/config.fish", ".pam_environment"}

// envLine finds the line of a shell startup file under home that sets
// name: "line N of FILE (TEXT)", or "".
func envLine(home, name string) string {
	for _, f := range shellFiles {
		p := filepath.Join(home, f)
		data, err := untrusted.ReadFile(p, "", 1<<20)
		if err != nil {
			continue
		}
		for i, l := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "#") || !strings.Contains(t, name) {
				continue
			}
			if strings.Contains(t, name+"=") || strings.Contains(t, "set -gx "+name) || strings.Contains(t, "set -x "+name) {
				return fmt.Sprintf("line %d of %s (%s)", i+1, p, t)
			}
		}
	}
	return ""
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
			waiting = append(waiting, hookLabel(h))
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

// hookLabel names a Codex hook for a person: its event and the memdir
// command it runs ("UserPromptSubmit (recall)"), since capture and recall
// share an event.
func hookLabel(h agentsetup.CodexHook) string {
	f := strings.Fields(h.Command)
	if len(f) < 2 {
		return h.Event
	}
	return h.Event + " (" + f[1] + ")"
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
