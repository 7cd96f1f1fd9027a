package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

type listOptions struct {
	typ    string
	agents bool
}

func newListCmd(a *app) *cobra.Command {
	var opts listOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the topics",
		Long: `List every topic: type, file, name and description. Files that cannot
be read or parsed are reported on stderr with their line, and the others
are still listed.

With --agents, list instead every subagent memory of the project and of
the user (Claude Code's agent memory: user, project and local scope) with
its number of topics; --agent-type NAME --scope S lists one of them.

Examples:
  memdir list
  memdir list --type feedback
  memdir list --json | jq -r '.[].file'
  memdir list --agents
  memdir list --agent-type code-reviewer --scope project`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runList(a, opts) },
	}
	cmd.Flags().StringVarP(&opts.typ, "type", "t", "", "only topics of this type")
	cmd.Flags().BoolVar(&opts.agents, "agents", false, "list the subagent memories instead, with counts")
	return cmd
}

// topicJSON is a topic as read commands print it.
type topicJSON = memdir.TopicView

func toJSON(t *memdir.Topic, body bool) topicJSON { return t.View(body) }

func runList(a *app, opts listOptions) error {
	if opts.agents {
		if opts.typ != "" || a.agentType != "" {
			return usagef("--agents lists every agent memory: it takes no --type or --agent-type")
		}
		return runListAgents(a)
	}
	var only typesx.Type
	if opts.typ != "" {
		t, err := typesx.Parse(opts.typ)
		if err != nil {
			return &usageError{msg: err.Error()}
		}
		only = t
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if !ws.dir.Exists() {
		return usagef("no memory yet at %s: `memdir add` or `memdir init` creates it", ws.loc.Dir)
	}
	topics, problems, err := ws.dir.List()
	if err != nil {
		return err
	}
	for _, p := range problems {
		a.warn("skipped %s", p)
	}
	out := []topicJSON{}
	for _, t := range topics {
		if only == "" || t.Type == only {
			out = append(out, toJSON(t, false))
		}
	}
	if a.json {
		return a.writeJSON(out)
	}
	tw := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
	for _, t := range out {
		mark := ""
		if t.Private {
			mark = " (private)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s — %s\n", t.Type, t.File, t.Name, mark, t.Description)
	}
	return tw.Flush()
}
