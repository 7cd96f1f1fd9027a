package canonical

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Agent memory scopes, as a Claude Code subagent definition names them
// (`memory: user|project|local`).
const (
	AgentScopeUser    = "user"    // <claude config>/agent-memory/<type>/, every project
	AgentScopeProject = "project" // <project>/.claude/agent-memory/<type>/, committed
	AgentScopeLocal   = "local"   // <project>/.claude/agent-memory-local/<type>/, not committed
)

// AgentScopes lists the agent memory scopes.
var AgentScopes = []string{AgentScopeUser, AgentScopeProject, AgentScopeLocal}

// SourceAgent is a Location's Source for a subagent's own memory.
const SourceAgent = "agent"

// ErrAgentScope means an agent memory scope is not one of AgentScopes.
var ErrAgentScope = errors.New("agent memory scope must be user, project or local")

// AgentTypeDir is the directory name Claude Code gives an agent type:
// every character outside [A-Za-z0-9_-] becomes '-', and an empty name is
// "unknown" (Claude Code 2.1.332, its Da function).
func AgentTypeDir(agentType string) string {
	var b strings.Builder
	for _, r := range agentType {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--") // two UTF-16 code units, as JavaScript sees it
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}

// AgentOptions are the inputs AgentDir places a subagent's memory from.
type AgentOptions struct {
	Type    string // the agent type, as the subagent definition names it
	Scope   string // one of AgentScopes
	Project string // the directory Claude Code runs in: the top of the worktree
	Root    string // the canonical project root, for CLAUDE_CODE_REMOTE_MEMORY_DIR
	Getenv  func(string) string
}

// ClaudeConfigDir is Claude Code's configuration directory:
// CLAUDE_CONFIG_DIR, else ~/.claude.
func ClaudeConfigDir(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return expandPath(d, "", getenv)
	}
	h := getenv("HOME")
	if h == "" {
		return "", ErrNoHome
	}
	return filepath.Join(h, ".claude"), nil
}

// AgentDir is where Claude Code keeps the memory of a subagent type in a
// scope (Claude Code 2.1.332, its VLs and im functions): user scope in the
// configuration directory, project scope in the project's
// .claude/agent-memory, local scope in .claude/agent-memory-local, or
// under CLAUDE_CODE_REMOTE_MEMORY_DIR/projects/<slug of the root>/ when
// that is set.
func AgentDir(o AgentOptions) (string, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	name := AgentTypeDir(o.Type)
	switch o.Scope {
	case AgentScopeUser:
		cfg, err := ClaudeConfigDir(getenv)
		if err != nil {
			return "", err
		}
		return filepath.Join(cfg, "agent-memory", name), nil
	case AgentScopeProject:
		return filepath.Join(o.Project, ".claude", "agent-memory", name), nil
	case AgentScopeLocal:
		if remote := getenv("CLAUDE_CODE_REMOTE_MEMORY_DIR"); remote != "" {
			return filepath.Join(remote, "projects", Slug(o.Root), "agent-memory-local", name), nil
		}
		return filepath.Join(o.Project, ".claude", "agent-memory-local", name), nil
	}
	return "", fmt.Errorf("%q: %w", o.Scope, ErrAgentScope)
}

// AgentMemory is one subagent memory directory found on disk.
type AgentMemory struct {
	Type  string `json:"agent_type"`
	Scope string `json:"scope"`
	Dir   string `json:"dir"`
}

// AgentMemories lists the subagent memory directories of a project and of
// the user, in scope order (user, project, local), then by type.
func AgentMemories(o AgentOptions) []AgentMemory {
	var out []AgentMemory
	for _, scope := range AgentScopes {
		o.Scope, o.Type = scope, "x"
		probe, err := AgentDir(o)
		if err != nil {
			continue
		}
		parent := filepath.Dir(probe)
		ents, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		var found []AgentMemory
		for _, e := range ents {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				found = append(found, AgentMemory{Type: e.Name(), Scope: scope, Dir: filepath.Join(parent, e.Name())})
			}
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Type < found[j].Type })
		out = append(out, found...)
	}
	return out
}

// AgentEntrypoint says whether Claude Code reads a subagent memory's
// MEMORY.md, as 2.1.332 decides it (its sm, lm and tm functions): in user
// scope always; in project and local scope only when the memory folder
// resolves inside the project (or does not exist yet) and MEMORY.md, when
// present, is a regular file and not a link. When it is not read, why
// says so, and Claude Code treats the memory as read-only for the session.
func AgentEntrypoint(dir, scope, project string) (why string) {
	if scope == AgentScopeUser {
		return ""
	}
	if within(project, dir) {
		realProject, err := filepath.EvalSymlinks(project)
		if err != nil {
			return "the project folder could not be resolved"
		}
		if !resolvesWithin(dir, realProject) {
			return "its folder leads out of the working copy or through a dangling link"
		}
	}
	fi, err := os.Lstat(filepath.Join(dir, "MEMORY.md"))
	if err != nil || fi.Mode().IsRegular() {
		return ""
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return "its MEMORY.md is a link"
	}
	return "its MEMORY.md is not a regular file"
}

// resolvesWithin reports whether p, resolved as far as it exists (a
// missing tail is taken as written), lies inside root.
func resolvesWithin(p, root string) bool {
	var missing []string
	for cur := p; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return within(root, filepath.Join(append([]string{real}, missing...)...))
		}
		if _, err := os.Lstat(cur); err == nil {
			return false // exists but does not resolve: a dangling link
		}
		if filepath.Dir(cur) == cur {
			return false
		}
		missing = append([]string{filepath.Base(cur)}, missing...)
	}
}

// within reports whether p is dir or lies below it (both clean and
// absolute).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}
