package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/instructions"
	"github.com/memdir/memdir/sessionctx"
	"github.com/memdir/memdir/typesx"
	"github.com/memdir/memdir/untrusted"
)

// discoverFlags are the flags shared by `context` and `instructions`.
type discoverFlags struct {
	agent   string
	agentID string
	files   []string
}

func (f *discoverFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.agent, "agent", "", "agent profile: "+strings.Join(instructions.BuiltinNames(), ", ")+", or one defined in settings (default: the context.agent setting)")
	cmd.Flags().StringVar(&f.agentID, "agent-id", "", "agent name for profiles that have one, e.g. deepagents (default: the context.agent_id setting)")
	cmd.Flags().StringArrayVar(&f.files, "file", nil, "a file the agent is about to touch; selects path-limited rules (repeatable)")
}

type contextOptions struct {
	discoverFlags
	format         string
	noMemory       bool
	noInstructions bool
	add            []string
	memoryFiles    []string
	output         string
}

func newContextCmd(a *app) *cobra.Command {
	var opts contextOptions
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Print what an agent should know at session start",
		Long: `Print the session-start block for an agent: the instruction files that
apply in the working directory (found by the agent profile's rules, imports
expanded, limits applied visibly), the skills available, and this project's
auto memory (a short guide and MEMORY.md as an agent loads it), then the
project's team memory under its own heading (docs/team.md). Private topics
never appear.

--format tagged prints tagged blocks carrying each file's path and scope;
native prints the text the agent itself builds from the same files (Claude
Code's claudeMd section with MEMORY.md, Codex's AGENTS.md message, Gemini
CLI's loaded_context; see docs/agents.md); text is native for gemini
profiles and tagged for the others; json prints the tagged blocks as data;
claude-hook prints the JSON a Claude Code SessionStart hook returns. MEMDIR_DISABLE_INSTRUCTIONS=1 and
MEMDIR_DISABLE_AUTO_MEMORY=1 turn the parts off (with --agent claude, so do
CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 and CLAUDE_CODE_DISABLE_AUTO_MEMORY=1).

With --agent-type NAME (and --scope), the memory part is that subagent's
own memory, rendered as Claude Code puts it into the subagent's system
prompt ("# Persistent Agent Memory"): --agent claude --format native
prints it byte for byte as Claude Code 2.1.332 does.

Examples:
  memdir context
  memdir context --agent claude --agent-type code-reviewer --scope project --format native --no-instructions
  memdir context --agent codex --file src/api/handler.go
  memdir context --agent claude --format claude-hook
  memdir context --agent codex --format native
  memdir context --no-instructions --add "Today we migrate the billing tables."
  memdir context --no-instructions -o .memdir-context.md   # then @.memdir-context.md in AGENTS.md`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runContext(a, opts) },
	}
	opts.register(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.format, "format", "text", "text, tagged, native, json or claude-hook")
	f.BoolVar(&opts.noMemory, "no-memory", false, "leave the personal auto memory out (team memory stays)")
	f.BoolVar(&opts.noInstructions, "no-instructions", false, "leave instruction files out")
	f.StringArrayVar(&opts.add, "add", nil, "one-time context to append (repeatable)")
	f.StringArrayVar(&opts.memoryFiles, "memory", nil, "an extra file to include (repeatable)")
	f.StringVarP(&opts.output, "output", "o", "", "write to FILE (atomically) instead of standard output, for agents without hooks to import")
	return cmd
}

func runContext(a *app, opts contextOptions) error {
	format := opts.format
	if a.json {
		format = "json"
	}
	switch format {
	case "text", "tagged", "native", "json", "claude-hook":
	default:
		return usagef("--format %q: use text, tagged, native, json or claude-hook", opts.format)
	}
	extra, err := a.readExtraFiles(opts.memoryFiles)
	if err != nil {
		return err
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	profile, err := a.profile(ws, opts.agent)
	if err != nil {
		return err
	}
	build := sessionctx.Options{Agent: profile.Name, Cwd: ws.Cwd, Files: extra, Notes: opts.add}
	// The memory part is read while the instruction files are found: the
	// two read different files, and the private check of the index's
	// topics is the larger half of the command's own work.
	parts := make(chan memoryParts, 1)
	go func() { parts <- a.memoryParts(ws, profile.Name, opts.noMemory) }()
	if !opts.noInstructions && !a.disabled("MEMDIR_DISABLE_INSTRUCTIONS", profile.Name, "CLAUDE_CODE_DISABLE_CLAUDE_MDS") {
		res, err := instructions.Discover(a.discoverOptions(ws, profile, opts.discoverFlags))
		if err != nil {
			return err
		}
		build.Instructions, build.Skills = sessionctx.FromDiscovery(res)
	}
	m := <-parts
	if m.err != nil {
		return m.err
	}
	build.Memory, build.Team, build.AgentMemory = m.memory, m.team, m.agent
	if format == "claude-hook" && a.agentType == "" {
		// A session starts: an overdue dream goes in the background.
		if why := a.dreamIfOverdue(ws); why != "" {
			a.warn("dreaming in the background: %s", why)
		}
		a.syncAtSessionStart(ws)
	}
	sc := sessionctx.Build(build)
	if note := (index.View{Dropped: sc.Dropped}).DroppedNote(10); note != "" {
		a.warn("%s", note)
	}
	if format == "text" && profile.Agent == instructions.AgentGemini {
		format = "native" // Gemini's own text is what --agent gemini gives
	}
	var out []byte
	if format == "native" {
		text, ok := sessionctx.Native(profile.Agent, build)
		if !ok {
			return usagef("--format native: profile %s follows no agent's own text; use claude, codex or gemini", profile.Name)
		}
		out = []byte(text)
	} else if out, err = render(sc, format); err != nil {
		return err
	}
	if opts.output != "" {
		path := opts.output
		if !filepath.IsAbs(path) {
			path = filepath.Join(ws.Cwd, path)
		}
		if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
			return usagef("--output: %v", err)
		}
		return nil
	}
	_, err = a.out.Write(out)
	return err
}

// memoryParts is the memory in a context: a subagent's own, or the
// project's personal memory (nil with --no-memory) and its team memory.
type memoryParts struct {
	memory *sessionctx.Memory
	team   *sessionctx.TeamMemory
	agent  *sessionctx.AgentMemory
	err    error
}

// memoryParts reads the memory a context includes; it only reads, so it
// may run beside instruction discovery.
func (a *app) memoryParts(ws *workspace, profile string, noMemory bool) memoryParts {
	var m memoryParts
	if a.agentType != "" {
		if !noMemory {
			m.agent, m.err = a.agentMemory(ws)
		}
		return m
	}
	if a.disabled("MEMDIR_DISABLE_AUTO_MEMORY", profile, "CLAUDE_CODE_DISABLE_AUTO_MEMORY") {
		return m
	}
	if !noMemory {
		data, parsed, err := ws.Dir.AgentIndexParsed(index.DefaultCaps)
		if err != nil {
			return memoryParts{err: err}
		}
		m.memory = &sessionctx.Memory{Dir: ws.Loc.Dir, Mode: string(ws.Dir.Mode), Index: data, Parsed: parsed,
			Today: a.now().Format(time.DateOnly), Caps: index.DefaultCaps, Exists: ws.Dir.Exists()}
	}
	// Team memory stays with --no-memory: the hook for Claude Code passes
	// it because Claude loads its own MEMORY.md, and Claude never loads
	// the project's team memory.
	m.team, m.err = a.teamContext(ws)
	return m
}

// render prints the context in one of the formats.
func render(c sessionctx.Context, format string) ([]byte, error) {
	switch format {
	case "json":
		out, err := json.MarshalIndent(c, "", "  ")
		return append(out, '\n'), err
	case "claude-hook":
		out, err := c.ClaudeHook()
		return append(out, '\n'), err
	}
	return c.AppendText(nil), nil
}

// disabled reports whether an off switch is set: memdir's own variable,
// or, for the claude profile, Claude Code's variable for the same thing.
func (a *app) disabled(own, profile, claudeVar string) bool {
	on := func(v string) bool {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "1", "true", "yes", "on":
			return true
		}
		return false
	}
	return on(a.getenv(own)) || (profile == "claude" && on(a.getenv(claudeVar)))
}

// profile picks the agent profile: --agent, else the context.agent setting.
func (a *app) profile(ws *workspace, agent string) (instructions.Profile, error) {
	if agent == "" {
		agent = ws.Settings.Get("context.agent")
	}
	p, err := instructions.Lookup(agent, ws.Settings.Profiles())
	if err != nil {
		return p, &usageError{msg: err.Error()}
	}
	return p, nil
}

func (a *app) discoverOptions(ws *workspace, p instructions.Profile, f discoverFlags) instructions.Options {
	id := f.agentID
	if id == "" {
		id = ws.Settings.Get("context.agent_id")
	}
	return instructions.Options{
		Profile: p, Root: ws.Repo.Root, WorkTree: ws.Repo.WorkTree, Cwd: ws.Cwd, Files: f.files,
		UserHome: a.getenv("HOME"), ConfigHome: a.getenv("XDG_CONFIG_HOME"), ManagedRoot: a.getenv("MEMDIR_MANAGED_INSTRUCTIONS"),
		AgentID: id, AllowOutsideImports: ws.Settings.Bool("context.allow_outside_imports"),
	}
}

// readExtraFiles reads --memory files; an unreadable one is bad input.
func (a *app) readExtraFiles(paths []string) ([]sessionctx.Block, error) {
	var out []sessionctx.Block
	for _, p := range paths {
		data, err := untrusted.ReadFile(p, "", untrusted.MaxInstruction)
		if err != nil {
			return nil, usagef("--memory %s: %v", p, err)
		}
		abs, _ := filepath.Abs(p)
		out = append(out, sessionctx.Block{Kind: "memory-file", Path: abs, Scope: typesx.ScopeExtra, Text: string(data)})
	}
	return out, nil
}
