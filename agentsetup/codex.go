package agentsetup

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/settings"
)

// CodexSessionEndTimeout is the longest SessionEnd hook Codex runs, in
// seconds: it clamps a longer timeout to this and warns on every run.
const CodexSessionEndTimeout = 3

// Codex: [mcp_servers.memdir] in config.toml (~/.codex or CODEX_HOME for
// the user, .codex/ in a trusted project) and hooks in hooks.json beside it.
// Codex starts an MCP server with a bare environment: env_vars passes
// every variable memdir reads (EnvVars) through when the person set it, so
// the server opens the memory the hooks open, team memory included.
func codexTargets(o Options, codexHome string) []target {
	dir := codexHome
	if !o.User {
		dir = filepath.Join(o.Root, ".codex")
	}
	block := "# >>> memdir setup: managed block; `memdir setup codex --undo` removes it\n" +
		"[mcp_servers.memdir]\n" +
		"command = " + tomlQuote(o.Program) + "\n" +
		"args = [\"mcp\"]\n" +
		"env_vars = " + tomlList(EnvVars()) + "\n" +
		"# <<< memdir setup\n"
	return []target{
		{path: filepath.Join(dir, "config.toml"), format: "toml", fence: tomlFence, block: block},
		{path: filepath.Join(dir, "hooks.json"), format: "json", hooks: []hookSpec{
			{event: "SessionStart", matcher: "startup|clear|compact", sub: contextArgs("codex"), timeout: 30},
			{event: "UserPromptSubmit", sub: captureArgs, timeout: 30},
			{event: "UserPromptSubmit", sub: recallArgs, timeout: 5},
			{event: "PreCompact", sub: captureArgs, timeout: 30},
			{event: "SessionEnd", sub: captureArgs, timeout: CodexSessionEndTimeout},
		}},
	}
}

var tomlFence = fence{begin: "# >>> memdir setup", end: "# <<< memdir setup"}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// EnvVars are the environment variables memdir reads: its home, directory,
// managed files and clock, and the variable of every setting
// (MEMDIR_MODE, MEMDIR_TEAM_DIR, MEMDIR_LOCK_TIMEOUT, ...), sorted.
func EnvVars() []string {
	names := []string{"MEMDIR_HOME", "MEMDIR_DIR", "MEMDIR_MANAGED_CONFIG", "MEMDIR_MANAGED_INSTRUCTIONS", "MEMDIR_NOW"}
	for _, k := range settings.Keys() {
		if k.Env != "" {
			names = append(names, k.Env)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// tomlList writes strings as a TOML array on one line.
func tomlList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlQuote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
