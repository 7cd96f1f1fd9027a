// Package sessionctx assembles what an agent gets at session start: the
// instruction files that apply where it stands, the skills it may use, its
// auto memory (the capped MEMORY.md view and a short guide to keeping it),
// and any one-time context. It renders that block as tagged text, as JSON,
// or as the JSON a Claude Code SessionStart hook prints.
package sessionctx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
)

// Block is one tagged piece of the session context.
type Block struct {
	Kind  string       `json:"kind"` // "instructions", "skills", "auto-memory", "team-memory", "agent-memory", "memory-file", "note"
	Path  string       `json:"path,omitempty"`
	Scope typesx.Scope `json:"scope,omitempty"`
	Note  string       `json:"note,omitempty"` // e.g. why a file was cut
	Text  string       `json:"text"`
}

// Instruction is a loaded instruction file, its imports already expanded.
type Instruction struct {
	Path  string
	Scope typesx.Scope
	Text  string
	Note  string
	// OnDemand marks a file loaded because a --file lies below it (Gemini's
	// just-in-time context).
	OnDemand bool
}

// Skill is a skill the agent may load on demand.
type Skill struct {
	Name, Description, Path string
	Scope                   typesx.Scope
}

// Memory is the auto memory to include.
type Memory struct {
	Dir   string // the memory directory
	Mode  string // "live" or "log"
	Index []byte // MEMORY.md as on disk (nil when there is none yet)
	// Parsed is Index parsed (index.Parse), when the caller has it; Build
	// parses Index when it is nil.
	Parsed *index.Index
	Caps   index.Caps
	Exists bool // whether the memory directory exists yet
	// Today is the clock's date (YYYY-MM-DD), the guide's example of an
	// absolute date.
	Today string
}

// TeamMemory is the project's team memory: committed with the project and
// loaded beside the personal memory, under its own caps.
type TeamMemory struct {
	Dir   string // the team memory directory
	Rel   string // the directory relative to the project, e.g. .memdir/team
	Index []byte // its MEMORY.md as on disk
	Caps  index.Caps
}

// TeamHeading is the line that opens team memory in every rendering, so
// an agent can tell shared memory from the user's own.
func TeamHeading(rel string) string {
	return "Team memory (shared with everyone who works in this project; committed at " + rel + ")"
}

// teamText is the team memory block's text: the heading, how to add to
// it, and its index as loaded.
func teamText(m *TeamMemory, v index.View) string {
	return "# " + TeamHeading(m.Rel) + "\n\n" +
		"Save a fact the whole team needs with `memdir add --team` (or memory_add with team: true); " +
		"nothing personal, private or secret belongs here.\n\n" +
		"## MEMORY.md\n\n" + v.Text + "\n"
}

// Options say what goes into the context.
type Options struct {
	Agent        string
	Cwd          string
	Instructions []Instruction
	Skills       []Skill
	Memory       *Memory // nil leaves auto memory out
	// AgentMemory is a subagent's own memory, given in place of the
	// project's (nil for none).
	AgentMemory *AgentMemory
	// Team is the project's team memory (nil or an empty index for none).
	Team  *TeamMemory
	Files []Block  // extra memory files (--memory)
	Notes []string // one-time context (--add)
}

// Context is the assembled session context.
type Context struct {
	Agent  string  `json:"agent"`
	Cwd    string  `json:"cwd"`
	Blocks []Block `json:"blocks"`
	// Dropped lists the personal index's entries the load caps left out
	// (the team index's cut is said in its own block's warning).
	Dropped []index.Entry `json:"-"`
}

// Build assembles the context in loading order: instructions, skills,
// auto memory, extra files, one-time notes.
func Build(opts Options) Context {
	c := Context{Agent: opts.Agent, Cwd: opts.Cwd, Blocks: []Block{}}
	for _, in := range opts.Instructions {
		c.Blocks = append(c.Blocks, Block{Kind: "instructions", Path: in.Path, Scope: in.Scope, Note: in.Note, Text: in.Text})
	}
	if len(opts.Skills) > 0 {
		c.Blocks = append(c.Blocks, Block{Kind: "skills", Text: skillsText(opts.Skills)})
	}
	if m := opts.Memory; m != nil {
		parsed := m.Parsed
		if parsed == nil {
			parsed = index.Parse(m.Index)
		}
		view := index.LoadIndex(parsed, m.Index, m.Caps)
		c.Dropped = view.Dropped
		c.Blocks = append(c.Blocks, Block{Kind: "auto-memory", Path: m.Dir, Scope: typesx.ScopeAuto,
			Text: indexSection(Guide(m.Dir, m.Mode, m.Today)+"\n", view)})
	}
	if m := opts.Team; m != nil {
		if view := index.Load(m.Index, m.Caps); view.Text != "" {
			c.Blocks = append(c.Blocks, Block{Kind: "team-memory", Path: m.Dir, Scope: typesx.ScopeTeam, Text: teamText(m, view)})
		}
	}
	if m := opts.AgentMemory; m != nil {
		c.Blocks = append(c.Blocks, Block{Kind: "agent-memory", Path: m.Dir, Scope: typesx.Scope(m.Scope), Text: AgentMemoryText(*m)})
	}
	c.Blocks = append(c.Blocks, opts.Files...)
	for _, n := range opts.Notes {
		c.Blocks = append(c.Blocks, Block{Kind: "note", Scope: typesx.ScopeExtra, Text: n})
	}
	return c
}

func skillsText(skills []Skill) string {
	var b strings.Builder
	b.WriteString("Skills you can load when a task calls for them (read the file first):\n")
	for _, s := range skills {
		fmt.Fprintf(&b, "- %s: %s (%s)\n", s.Name, s.Description, s.Path)
	}
	return b.String()
}

// indexSection is head followed by the index part of the memory prompt as
// Claude Code writes it: a heading, a blank line, and the loaded text (or
// Claude's line for an empty index). Taking head saves a copy of the index.
func indexSection(head string, v index.View) string {
	if v.Text == "" {
		return head + "## MEMORY.md\n\nYour MEMORY.md is currently empty. When you save new memories, they will appear here.\n"
	}
	return head + "## MEMORY.md\n\n" + v.Text + "\n"
}

// Text renders the context as tagged blocks, each carrying its path and
// scope, so an agent (and a person reading along) can tell where every
// line came from.
func (c Context) Text() string {
	var b strings.Builder
	b.Grow(c.textSize())
	c.writeText(&b)
	return b.String()
}

// AppendText appends Text to buf, for a caller that writes bytes: the
// text of every instruction file and index is copied once, into a buffer
// sized for it.
func (c Context) AppendText(buf []byte) []byte {
	b := bytes.NewBuffer(slices.Grow(buf, c.textSize()))
	c.writeText(b)
	return b.Bytes()
}

// textSize is about the length of Text, a little over.
func (c Context) textSize() int {
	n := 0
	for _, blk := range c.Blocks {
		n += 2*len(blk.Kind) + len(blk.Path) + len(blk.Scope) + len(blk.Note) + len(blk.Text) + 64
	}
	return n
}

func (c Context) writeText(b interface{ WriteString(string) (int, error) }) {
	for i, blk := range c.Blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("<" + blk.Kind)
		if blk.Path != "" {
			b.WriteString(" path=" + strconv.Quote(blk.Path))
		}
		if blk.Scope != "" {
			b.WriteString(" scope=" + strconv.Quote(string(blk.Scope)))
		}
		if blk.Note != "" {
			b.WriteString(" note=" + strconv.Quote(blk.Note))
		}
		b.WriteString(">\n")
		b.WriteString(strings.TrimRight(blk.Text, "\n"))
		b.WriteString("\n</" + blk.Kind + ">\n")
	}
}

// hookOutput is what a Claude Code SessionStart hook prints to add context.
type hookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// ClaudeHook renders the context as a Claude Code SessionStart hook's JSON.
func (c Context) ClaudeHook() ([]byte, error) {
	var out hookOutput
	out.HookSpecificOutput.HookEventName = "SessionStart"
	out.HookSpecificOutput.AdditionalContext = c.Text()
	return json.MarshalIndent(out, "", "  ")
}
