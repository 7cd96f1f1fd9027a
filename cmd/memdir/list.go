package main

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

type listOptions struct {
	types  []string
	agents bool
	team   bool
	limit  int
	sort   string
}

func newListCmd(a *app) *cobra.Command {
	var opts listOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the topics",
		Long: `List every topic: type, file, name and description. Files that cannot
be read or parsed are reported on stderr with their line, and the others
are still listed. --sort orders them by type (the default: type, then
file), name, or newest first by modified or created time; --limit keeps
the first N.

The project's team memory (docs/team.md) is listed after your own, each
row marked (team); --team lists only the team's.

With --agents, list instead every subagent memory of the project and of
the user (Claude Code's agent memory: user, project and local scope) with
its number of topics; --agent-type NAME --scope S lists one of them.

Examples:
  memdir list
  memdir list --type feedback,user
  memdir list --sort modified --limit 10
  memdir list --team
  memdir list --json | jq -r '.[].file'
  memdir list --agents
  memdir list --agent-type code-reviewer --scope project`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runList(a, opts) },
	}
	cmd.Flags().StringSliceVarP(&opts.types, "type", "t", nil, "only topics of these types (repeat or use commas)")
	cmd.Flags().IntVarP(&opts.limit, "limit", "n", 0, "list at most N topics (0: all)")
	cmd.Flags().StringVar(&opts.sort, "sort", "type", "type, name, modified or created (newest first)")
	cmd.Flags().BoolVar(&opts.agents, "agents", false, "list the subagent memories instead, with counts")
	cmd.Flags().BoolVar(&opts.team, "team", false, "list only the project's team memory")
	return cmd
}

// topicJSON is a topic as read commands print it.
type topicJSON = memdir.TopicView

func toJSON(t *memdir.Topic, body bool) topicJSON { return t.View(body) }

func runList(a *app, opts listOptions) error {
	if opts.agents {
		if len(opts.types) > 0 || a.agentType != "" {
			return usagef("--agents lists every agent memory: it takes no --type or --agent-type")
		}
		return runListAgents(a)
	}
	only := map[typesx.Type]bool{}
	for _, name := range opts.types {
		t, err := typesx.Parse(name)
		if err != nil {
			return &usageError{msg: err.Error()}
		}
		only[t] = true
	}
	less, err := listOrder(opts.sort)
	if err != nil {
		return err
	}
	if opts.limit < 0 {
		return usagef("--limit %d: give a number of topics, or 0 for all", opts.limit)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	team, err := a.listTeam(ws, opts.team)
	if err != nil {
		return err
	}
	out := []listedTopic{}
	if !opts.team {
		if !ws.Dir.Exists() && team == nil {
			return usagef("no memory yet at %s: `memdir add` or `memdir init` creates it", ws.Loc.Dir)
		}
		if out, err = a.listDir(ws.Dir, only, "", out); err != nil {
			return err
		}
	}
	if team != nil {
		if out, err = a.listDir(team.Dir, only, scopeTeam, out); err != nil {
			return err
		}
	}
	if less != nil {
		sort.SliceStable(out, func(i, j int) bool { return less(out[i].TopicView, out[j].TopicView) })
	}
	if opts.limit > 0 && len(out) > opts.limit {
		out = out[:opts.limit]
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
		if t.Scope == scopeTeam {
			mark += " (team)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s — %s\n", t.Type, t.File, t.Name, mark, t.Description)
	}
	return tw.Flush()
}

// listOrder is how --sort orders topics: nil keeps the store's order (by
// type, then file).
func listOrder(by string) (func(a, b memdir.TopicView) bool, error) {
	newer := func(x, y *time.Time) bool { return x != nil && (y == nil || x.After(*y)) }
	switch by {
	case "", "type":
		return nil, nil
	case "name":
		return func(a, b memdir.TopicView) bool { return strings.ToLower(a.Name) < strings.ToLower(b.Name) }, nil
	case "modified":
		return func(a, b memdir.TopicView) bool { return newer(a.Modified, b.Modified) }, nil
	case "created":
		return func(a, b memdir.TopicView) bool { return newer(a.Created, b.Created) }, nil
	}
	return nil, usagef("--sort %q: use type, name, modified or created", by)
}

// listedTopic is a topic as list prints it: team topics carry "scope":
// "team".
type listedTopic struct {
	memdir.TopicView
	Scope string `json:"scope,omitempty"`
}

// listTeam opens the team memory list shows: nil when the project has
// none (an error only when --team asked for it).
func (a *app) listTeam(ws *workspace, only bool) (*teamMemory, error) {
	if only {
		d, _, err := a.scopeDir(ws, true)
		if err != nil {
			return nil, err
		}
		return &teamMemory{Dir: d}, nil
	}
	return a.teamRead(ws), nil
}

// listDir appends the topics of d, of type only when set, to out.
func (a *app) listDir(d *memdir.Dir, only map[typesx.Type]bool, scope string, out []listedTopic) ([]listedTopic, error) {
	if !d.Exists() {
		return out, nil
	}
	topics, problems, err := d.List()
	if err != nil {
		return out, err
	}
	for _, p := range problems {
		a.warn("skipped %s", p)
	}
	for _, t := range topics {
		if len(only) == 0 || only[t.Type] {
			out = append(out, listedTopic{TopicView: toJSON(t, false), Scope: scope})
		}
	}
	return out, nil
}
