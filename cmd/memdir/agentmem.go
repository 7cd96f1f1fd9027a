package main

import (
	"errors"
	"fmt"
	"io/fs"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/sessionctx"
)

// agentMemoryCmds are the commands that work on a subagent's own memory
// when given --agent-type (and --scope).
var agentMemoryCmds = map[string]bool{
	"add": true, "list": true, "show": true, "edit": true, "rm": true, "search": true,
	"index": true, "lint": true, "dream": true, "watch": true, "history": true,
	"context": true, "logs": true, "path": true, "stats": true, "timeline": true,
	"init": true, "diff": true, "restore": true, "commit": true,
}

// addAgentFlags gives every command in agentMemoryCmds the --agent-type
// and --scope flags.
func (a *app) addAgentFlags(root *cobra.Command) {
	for _, c := range root.Commands() {
		if !agentMemoryCmds[c.Name()] {
			continue
		}
		c.Flags().StringVar(&a.agentType, "agent-type", "", "work on this subagent type's own memory, as Claude Code keeps it")
		c.Flags().StringVar(&a.agentScope, "scope", "", "the agent memory's scope: user, project or local (needed when more than one exists)")
	}
}

// runListAgents lists every subagent memory of the project and the user.
func runListAgents(a *app) error {
	r := a.resolver()
	p, err := r.FindProject()
	if err != nil {
		return err
	}
	out := r.AgentMemories(p)
	if a.json {
		return a.writeJSON(out)
	}
	if len(out) == 0 {
		fmt.Fprintln(a.out, "no agent memory yet")
		return nil
	}
	tw := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
	for _, m := range out {
		note := ""
		if m.ReadOnly != "" {
			note = "  (read-only: " + m.ReadOnly + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d topics\t%s%s\n", m.Scope, m.Type, m.Topics, m.Dir, note)
	}
	return tw.Flush()
}

// agentMemory is the subagent memory of the workspace, as its context
// renders it: MEMORY.md unless Claude Code would not read it.
func (a *app) agentMemory(ws *workspace) (*sessionctx.AgentMemory, error) {
	am := &sessionctx.AgentMemory{Dir: ws.Loc.Dir, Scope: a.agentScope, NotLoaded: ws.Dir.ReadOnly() != "",
		Extra: a.getenv("CLAUDE_COWORK_MEMORY_EXTRA_GUIDELINES")}
	if am.NotLoaded {
		return am, nil
	}
	data, err := ws.Dir.AgentIndex(index.DefaultCaps)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	am.Index = data
	return am, nil
}
