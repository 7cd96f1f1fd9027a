package sessionctx

import (
	"strings"

	"github.com/memdir/memdir/index"
)

// AgentMemory is a subagent's own memory, as Claude Code loads it into
// that subagent's system prompt.
type AgentMemory struct {
	// Dir is the memory directory; the prompt names it with a trailing
	// separator, as Claude Code does.
	Dir string
	// Scope is user, project or local.
	Scope string
	// Index is MEMORY.md as on disk (nil when there is none).
	Index []byte
	// NotLoaded is true when Claude Code does not read MEMORY.md (a link,
	// a special file, a folder leading out of the working copy): the
	// memory is then read-only for the session.
	NotLoaded bool
	// Extra is CLAUDE_COWORK_MEMORY_EXTRA_GUIDELINES, when set.
	Extra string
}

// scopeGuideline is Claude Code's line for each agent memory scope.
var scopeGuideline = map[string]string{
	"user":    "- Since this memory is user-scope, keep learnings general since they apply across all projects",
	"project": "- Since this memory is project-scope and shared with your team via version control, tailor your memories to this project",
	"local":   "- Since this memory is local-scope (not checked into version control), tailor your memories to this project and machine",
}

// AgentMemoryText renders the agent memory section of a subagent's
// prompt byte for byte as Claude Code 2.1.332 does (its Oa and fo
// functions; golden files in testdata/claude/agent-memory).
func AgentMemoryText(m AgentMemory) string {
	dir := strings.TrimRight(m.Dir, "/") + "/"
	var b strings.Builder
	b.WriteString("# Persistent Agent Memory\n\nYou have a persistent, file-based memory system at `" + dir + "`. ")
	if m.NotLoaded {
		b.WriteString("This memory is read-only this session \u2014 you cannot save new memories to it.\n\n")
	} else {
		b.WriteString(agentWritable + "\n\n" + agentIntro + "\n")
	}
	b.WriteString(agentTypes + "\n")
	if !m.NotLoaded {
		b.WriteString(agentSave + "\n")
	}
	b.WriteString(agentAccess + "\n")
	b.WriteString(scopeGuideline[m.Scope] + "\n")
	if strings.TrimSpace(m.Extra) != "" {
		b.WriteString(m.Extra + "\n")
	}
	b.WriteString("\n## MEMORY.md\n\n")
	v := index.Load(m.Index, index.DefaultCaps)
	switch {
	case m.NotLoaded:
		b.WriteString("Your MEMORY.md was not loaded: it or its folder is a link or a special file, or could not be verified to be inside this working copy. Treat this agent memory as read-only in this session: do not create or write MEMORY.md or other files in its folder.")
	case strings.TrimSpace(v.Text) != "":
		b.WriteString(v.Text)
	default:
		b.WriteString("Your MEMORY.md is currently empty. When you save new memories, they will appear here.")
	}
	return b.String()
}
