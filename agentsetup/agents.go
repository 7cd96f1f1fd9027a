package agentsetup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Agents are the agents setup knows, in the order help lists them.
var Agents = []string{"claude", "codex", "gemini", "amp"}

// Options say what to wire, where, and with which memdir.
type Options struct {
	Agent string
	User  bool // the user-wide files; else the project's
	Undo  bool
	// Program is the memdir executable the agent runs: "memdir" (found on
	// PATH) or an absolute path.
	Program string
	Home    string // the user's home directory
	Root    string // the project root, for project files
	Getenv  func(string) string
	// InstructionFile is the instruction file that gets the memory note
	// for agents without hooks (amp); absolute.
	InstructionFile string
	// MemoryDir is memdir's memory directory for the project (absolute):
	// Claude Code's auto memory is pointed at it.
	MemoryDir string
	// BackupDir holds the copies Apply makes of the files it changes: an
	// undo restores from them the values of the person's own that setup
	// replaced.
	BackupDir string
	// ManagedSettings is Claude Code's managed settings file; "" is
	// ClaudeManagedSettings.
	ManagedSettings string
	// TrustAssumed resolves Claude's settings as in a trusted workspace
	// (doctor reports missing trust as a finding of its own).
	TrustAssumed bool
}

// target is one file setup edits and what it puts there.
type target struct {
	path   string
	format string // "json", "toml" or "md"
	// JSON: the MCP server entry and its key path; the hooks to wire.
	server     jobj
	serverPath []string
	hooks      []hookSpec
	// unhooks are hooks setup wired here before and keeps elsewhere now:
	// taken out on every run.
	unhooks []hookSpec
	// peer is another file of the agent's whose own variant of a hook
	// (the person's, not setup's) stands for it: setup then adds none.
	peer string
	// JSON: settings setup owns (set when missing, taken out by undo when
	// they still hold setup's value) and strings it adds to lists
	// (permission rules, approved servers).
	settings []setting
	lists    []listSetting
	// TOML and markdown: the managed block ("file": the whole file);
	// remove takes the block out on setup too (an earlier release's).
	fence  fence
	block  string
	remove bool
}

// listSetting is strings setup adds to the JSON list at path.
type listSetting struct {
	path   []string
	values []string
}

// setting is one JSON value setup writes at path.
type setting struct {
	path  []string
	value any // a string or a bool
	// owned reports whether a string value other than value is one setup
	// wrote earlier; nil: none is.
	owned func(string) bool
	// takeOver replaces the person's own value (which stands in the way
	// of one memory), with a note; undo then puts back the value the
	// newest backup under backups held (restore), or removes setup's.
	takeOver bool
	backups  string
}

// isMemoryDir reports whether dir is a memdir memory directory: memdir
// keeps its state in .memdir/ inside it.
func isMemoryDir(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, ".memdir"))
	return err == nil && fi.IsDir()
}

// hookSpec is one hook setup wires: a matcher group with one command.
type hookSpec struct {
	event   string
	matcher string
	sub     string // the memdir subcommand and its arguments, e.g. "capture"
	timeout int
	// legacy are subcommands earlier releases of setup wrote for this
	// hook: they are setup's own, replaced by sub and taken out by undo.
	legacy []string
}

// The memdir subcommands hooks run.
func contextArgs(agent string) string {
	return "context --agent " + agent + " --no-instructions --format claude-hook"
}

const captureArgs = "capture"

// recallArgs is the prompt hook that adds the memories relevant to the
// prompt; it answers within a few milliseconds, so its timeout is short.
const recallArgs = "recall"

// claudeContextArgs is Claude Code's session-start hook when Claude loads
// MEMORY.md itself from memdir's directory (autoMemoryDirectory): memdir
// adds no memory, so MEMORY.md reaches the model once.
const claudeContextArgs = "context --agent claude --no-instructions --no-memory --format claude-hook"

// ClaudeTools are memdir's MCP tools as Claude Code names them, with
// whether setup allows them without asking: every tool but memory_forget,
// which deletes, so Claude asks before it forgets.
var ClaudeTools = []struct {
	Name  string
	Allow bool
}{
	{"mcp__memdir__memory_search", true}, {"mcp__memdir__memory_show", true},
	{"mcp__memdir__memory_list", true}, {"mcp__memdir__memory_timeline", true},
	{"mcp__memdir__memory_stats", true}, {"mcp__memdir__memory_add", true},
	{"mcp__memdir__memory_forget", false},
}

func claudeAllow() []string {
	var out []string
	for _, t := range ClaudeTools {
		if t.Allow {
			out = append(out, t.Name)
		}
	}
	return out
}

// targets lists the files for o.Agent and scope.
func targets(o Options) ([]target, error) {
	env := func(k string) string {
		if o.Getenv == nil {
			return ""
		}
		return o.Getenv(k)
	}
	home := o.Home
	switch o.Agent {
	case "claude":
		return claudeTargets(o, firstOf(env("CLAUDE_CONFIG_DIR"), filepath.Join(home, ".claude")), firstOf(env("CLAUDE_CONFIG_DIR"), home)), nil
	case "codex":
		return codexTargets(o, codexHome(o)), nil
	case "gemini":
		return geminiTargets(o, filepath.Join(firstOf(env("GEMINI_CLI_HOME"), home), ".gemini")), nil
	case "amp":
		return ampTargets(o, AmpConfigDir(home, o.Getenv))
	}
	return nil, fmt.Errorf("unknown agent %q: use %s", o.Agent, strings.Join(Agents, ", "))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// stdioServer is the MCP entry that runs `memdir mcp`.
func stdioServer(o Options, withType bool) jobj {
	s := jobj{{"command", o.Program}, {"args", []any{"mcp"}}}
	if withType {
		s = append(jobj{{"type", "stdio"}}, s...)
	}
	return s
}

// Claude Code: MCP servers in .mcp.json (project) or ~/.claude.json
// (user; inside CLAUDE_CONFIG_DIR when set, and the legacy
// ~/.claude/.config.json when that exists); hooks and permission rules in
// .claude/settings.json or ~/.claude/settings.json.
//
// One memory: for a project, Claude's auto memory is pointed at memdir's
// directory (autoMemoryDirectory, which Claude honours in
// .claude/settings.local.json but not in the committed settings.json), so
// Claude loads MEMORY.md and writes memories there itself and memdir's
// session-start hook adds none. User-wide settings cannot name one
// directory per project, so --user turns Claude's own auto memory off
// (autoMemoryEnabled: false) and memdir's hook carries MEMORY.md.
func claudeTargets(o Options, claudeDir, globalDir string) []target {
	mcpFile := filepath.Join(o.Root, ".mcp.json")
	settings := filepath.Join(o.Root, ".claude", "settings.json")
	ctx := claudeContextArgs
	legacy := []string{contextArgs("claude")}
	if o.User {
		mcpFile = filepath.Join(globalDir, ".claude.json")
		if legacy := filepath.Join(claudeDir, ".config.json"); exists(legacy) {
			mcpFile = legacy
		}
		settings = filepath.Join(claudeDir, "settings.json")
		ctx, legacy = contextArgs("claude"), nil
	}
	allow := listSetting{path: []string{"permissions", "allow"}, values: claudeAllow()}
	main := target{path: settings, format: "json", lists: []listSetting{allow}, hooks: []hookSpec{
		{event: "SessionStart", matcher: "startup|clear|compact", sub: ctx, timeout: 30, legacy: legacy},
		{event: "UserPromptSubmit", sub: captureArgs, timeout: 30},
		{event: "UserPromptSubmit", sub: recallArgs, timeout: 5},
		{event: "PreCompact", sub: captureArgs, timeout: 30},
		{event: "SessionEnd", sub: captureArgs, timeout: 30},
	}}
	ts := []target{{path: mcpFile, format: "json", server: stdioServer(o, true), serverPath: []string{"mcpServers", "memdir"}}}
	if o.User || o.MemoryDir == "" {
		if o.User {
			main.settings = []setting{{path: []string{"autoMemoryEnabled"}, value: false}}
		}
		return append(ts, main)
	}
	// The hooks run memdir, so they live where only this person's Claude
	// reads them: a teammate without memdir who clones the project gets
	// no hook that fails on every run. The committed settings.json keeps
	// the permission rules (harmless without the server) and loses the
	// hooks an earlier setup put there. The approval of the .mcp.json
	// server is recorded as Claude records it when asked: without it
	// `claude -p` starts no server (and a teammate's Claude asks first).
	local := target{path: filepath.Join(o.Root, ".claude", "settings.local.json"), format: "json",
		settings: claudeLocalSettings(o), hooks: main.hooks, peer: settings,
		lists: []listSetting{{path: []string{"enabledMcpjsonServers"}, values: []string{"memdir"}}}}
	main.unhooks, main.hooks = main.hooks, nil
	return append(ts, main, local)
}

// claudeLocalSettings are the values setup owns in the project's
// settings.local.json, which Claude reads above the project's and the
// user's settings: autoMemoryDirectory is memdir's directory (the
// person's own value is replaced once its memories are brought in), and
// when a local, project or user setting turns auto memory off,
// autoMemoryEnabled is true. Undo puts back what was there.
func claudeLocalSettings(o Options) []setting {
	out := []setting{{path: []string{"autoMemoryDirectory"}, value: o.MemoryDir, owned: isMemoryDir,
		takeOver: true, backups: o.BackupDir}}
	cm := ResolveClaudeMemory(o)
	off := !cm.Enabled && cm.DisabledLevel != "policy" && cm.DisabledLevel != "environment" && cm.DisabledBy != "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
	if o.Undo || off {
		out = append(out, setting{path: []string{"autoMemoryEnabled"}, value: true, takeOver: true, backups: o.BackupDir})
	}
	return out
}

// Gemini CLI: mcpServers and hooks in one settings.json (.gemini/ in the
// project, ~/.gemini/ for the user, GEMINI_CLI_HOME replacing ~). Hook
// timeouts are in milliseconds; BeforeAgent carries the prompt (Gemini
// appends a BeforeAgent hook's hookSpecificOutput.additionalContext to the
// prompt as <hook_context>, which is how recall's memories arrive) and
// PreCompress comes before compression.
func geminiTargets(o Options, geminiDir string) []target {
	path := filepath.Join(o.Root, ".gemini", "settings.json")
	if o.User {
		path = filepath.Join(geminiDir, "settings.json")
	}
	// trust: Gemini's policy then allows memdir's tools without asking,
	// which is what offers them in headless mode (gemini -p) without
	// --allowed-mcp-server-names; mcp.allowed would do it too, but it is an
	// allowlist that would shut out every other server.
	server := append(stdioServer(o, false), jkv{"trust", true})
	return []target{{path: path, format: "json",
		server: server, serverPath: []string{"mcpServers", "memdir"},
		hooks: []hookSpec{
			{event: "SessionStart", sub: contextArgs("gemini"), timeout: 30000},
			{event: "BeforeAgent", sub: captureArgs, timeout: 30000},
			{event: "BeforeAgent", sub: recallArgs, timeout: 5000},
			{event: "PreCompress", sub: captureArgs, timeout: 30000},
			{event: "SessionEnd", sub: captureArgs, timeout: 30000},
		}}}
}

// hookCommand is the shell command line of a hook: the program, quoted
// for the shell when it needs to be, and the subcommand.
func hookCommand(program, sub string) string {
	return shellQuote(program) + " " + sub
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// path characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runsMemdir splits a hook command into the program and the rest when the
// program is a memdir binary (any path); ok is false otherwise.
func runsMemdir(command string) (program, rest string, ok bool) {
	c := strings.TrimSpace(command)
	if strings.HasPrefix(c, "'") {
		end := strings.Index(c[1:], "'")
		if end < 0 {
			return "", "", false
		}
		program, rest = c[1:1+end], c[2+end:]
	} else {
		program, rest, _ = strings.Cut(c, " ")
	}
	base := filepath.Base(program)
	if base != "memdir" && base != "memdir.exe" {
		return "", "", false
	}
	return program, strings.TrimSpace(rest), true
}

// Hints say what the person still has to do in the agent once its files
// are written: each agent asks before it trusts what a file brought in.
func Hints(agent string, user bool) []string {
	switch agent {
	case "claude":
		h := []string{"restart Claude Code; /mcp lists the memdir server and /hooks the hooks"}
		if !user {
			h = append(h, "run `claude` here once and accept the trust dialog: until then Claude Code ignores the project's permission rules, and `claude -p` refuses memdir's tools")
		}
		return h
	case "codex":
		h := []string{"Codex runs no hook until you review it, and `codex exec` skips an unreviewed hook without a word: run `codex`, type /hooks and trust memdir's five hooks (`memdir doctor codex` checks)"}
		if !user {
			h = append(h, "Codex reads a project's .codex/ files only when the project is trusted: `codex` asks when it starts here")
		}
		return h
	case "gemini":
		if !user {
			return []string{"Gemini CLI reads a project's settings only in a trusted folder: run `gemini` here once and trust it"}
		}
	case "amp":
		return ampHints(user)
	}
	return nil
}
