package sessionctx

import (
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/instructions"
	"github.com/memdir/memdir/typesx"
)

// claudeIntro is the line Claude Code 2.1 puts before its instruction files.
const claudeIntro = "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written."

// Native renders the instructions and memory as the agent itself puts them
// in its prompt: for "claude" Claude Code's claudeMd section (each file as
// "Contents of PATH (kind):", MEMORY.md last as auto-memory); for "codex"
// Codex's AGENTS.md message; for "gemini" Gemini CLI's loaded_context block,
// then the files --file added, as its just-in-time loader adds them. It
// reports false for an agent it has no native text for. For codex and
// gemini, whose agents have no such memory, the auto memory follows as
// memdir's tagged block.
func Native(agent string, opts Options) (string, bool) {
	var text string
	switch agent {
	case "claude":
		return claudeText(opts), true
	case "codex":
		text = codexText(opts)
	case "gemini":
		text = geminiText(opts)
	default:
		return "", false
	}
	if opts.Memory != nil || opts.Team != nil || opts.AgentMemory != nil || len(opts.Files) > 0 || len(opts.Notes) > 0 {
		rest := Build(Options{Agent: agent, Cwd: opts.Cwd, Memory: opts.Memory, Team: opts.Team, AgentMemory: opts.AgentMemory, Files: opts.Files, Notes: opts.Notes})
		if t := rest.Text(); t != "" {
			if text != "" {
				text += "\n"
			}
			text += t
		}
	}
	return text, true
}

func claudeText(opts Options) string {
	var parts []string
	for _, in := range opts.Instructions {
		if t := index.TrimJS(in.Text); t != "" {
			parts = append(parts, "Contents of "+in.Path+claudeKind(in.Scope)+":\n\n"+t)
		}
	}
	if m := opts.Memory; m != nil {
		if v := index.Load(m.Index, m.Caps); v.Text != "" {
			parts = append(parts, "Contents of "+filepath.Join(m.Dir, index.IndexName)+claudeKind(typesx.ScopeAuto)+":\n\n"+v.Text)
		}
	}
	if m := opts.Team; m != nil {
		if v := index.Load(m.Index, m.Caps); v.Text != "" {
			parts = append(parts, "Contents of "+filepath.Join(m.Dir, index.IndexName)+" ("+TeamHeading(m.Rel)+"):\n\n"+v.Text)
		}
	}
	agent := ""
	if m := opts.AgentMemory; m != nil {
		// A subagent's memory is a section of its system prompt of its
		// own, not a claudeMd file.
		agent = AgentMemoryText(*m) + "\n"
	}
	if len(parts) == 0 {
		return agent
	}
	text := claudeIntro + "\n\n" + strings.Join(parts, "\n\n") + "\n"
	if agent != "" {
		text += "\n" + agent
	}
	return text
}

func claudeKind(s typesx.Scope) string {
	switch s {
	case typesx.ScopeProject:
		return " (project instructions, checked into the codebase)"
	case typesx.ScopeLocal:
		return " (user's private project instructions, not checked in)"
	case typesx.ScopeAuto:
		return " (user's auto-memory, persists across conversations)"
	case typesx.ScopeManaged:
		return " (organization-managed policy instructions)"
	}
	return " (user's private global instructions for all projects)"
}

// codexText is Codex 0.169's message: the user file trimmed, then the
// project files as loaded, joined by blank lines.
func codexText(opts Options) string {
	var user, docs []string
	for _, in := range opts.Instructions {
		if in.Scope == typesx.ScopeProject {
			docs = append(docs, in.Text)
		} else if t := strings.TrimSpace(in.Text); t != "" {
			user = append(user, t)
		}
	}
	if len(user)+len(docs) == 0 {
		return ""
	}
	body := strings.Join(user, "\n\n")
	if len(docs) > 0 {
		if body != "" {
			body += "\n\n--- project-doc ---\n\n"
		}
		body += strings.Join(docs, "\n\n")
	}
	return "# AGENTS.md instructions for " + opts.Cwd + "\n\n<INSTRUCTIONS>\n" + body + "\n</INSTRUCTIONS>\n"
}

// geminiText is Gemini CLI 0.61's rendering of its user memory (global and
// project context inside loaded_context), then the just-in-time files.
func geminiText(opts Options) string {
	var global, project, later []string
	for _, in := range opts.Instructions {
		t := strings.TrimSpace(in.Text)
		if t == "" {
			continue
		}
		block := "--- Context from: " + in.Path + " ---\n" + t + "\n--- End of Context from: " + in.Path + " ---"
		switch {
		case in.OnDemand:
			later = append(later, block)
		case in.Scope == typesx.ScopeProject:
			project = append(project, block)
		default:
			global = append(global, block)
		}
	}
	var sections []string
	if len(global) > 0 {
		sections = append(sections, "<global_context>\n"+strings.Join(global, "\n\n")+"\n</global_context>")
	}
	if len(project) > 0 {
		sections = append(sections, "<project_context>\n"+strings.Join(project, "\n\n")+"\n</project_context>")
	}
	out := ""
	if len(sections) > 0 {
		out = "<loaded_context>\n" + strings.Join(sections, "\n") + "\n</loaded_context>\n"
	}
	if len(later) > 0 {
		out += strings.Join(later, "\n\n") + "\n"
	}
	return out
}

// FromDiscovery turns what instruction discovery loaded into the
// instructions and skills of a context. A cut file carries the reason, an
// import its importer.
func FromDiscovery(res instructions.Result) ([]Instruction, []Skill) {
	var ins []Instruction
	for _, f := range res.Files {
		if !f.Loaded() {
			continue
		}
		note := ""
		if f.Status == instructions.StatusTruncated {
			note = f.Reason
		}
		if f.ImportedFrom != "" {
			note = strings.TrimSuffix(strings.TrimSpace("imported by "+f.ImportedFrom+"; "+note), ";")
		}
		ins = append(ins, Instruction{Path: f.Path, Scope: f.Scope, Text: f.Content, Note: note, OnDemand: f.OnDemand})
	}
	var skills []Skill
	for _, s := range res.Skills {
		skills = append(skills, Skill{Name: s.Name, Description: s.Description, Path: s.Path, Scope: s.Scope})
	}
	return ins, skills
}
