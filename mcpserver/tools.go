package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// memoryType is a memory type in a tool's input; its schema lists the
// types.
type memoryType string

// schemaOptions give memoryType its enum.
func schemaOptions() *jsonschema.ForOptions {
	enum := make([]any, 0, len(typesx.Types))
	for _, t := range typesx.Types {
		enum = append(enum, string(t))
	}
	return &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[memoryType](): {Type: "string", Enum: enum},
	}}
}

// addTool registers a typed tool whose input schema is generated from In
// with memoryType's enum.
func addTool[In, Out any](s *Server, name, desc string, readOnly bool, h mcp.ToolHandlerFor[In, Out]) error {
	in, err := jsonschema.For[In](schemaOptions())
	if err != nil {
		return fmt.Errorf("%s: input schema: %w", name, err)
	}
	ann := &mcp.ToolAnnotations{ReadOnlyHint: readOnly, OpenWorldHint: new(bool)}
	if !readOnly {
		ann.DestructiveHint = new(name == "memory_forget")
	}
	mcp.AddTool(s.mcp, &mcp.Tool{Name: name, Description: desc, InputSchema: in, Annotations: ann}, h)
	return nil
}

// addTools registers every tool.
func (s *Server) addTools() error {
	return errors.Join(
		addTool(s, "memory_search", searchDesc, true, s.search),
		addTool(s, "memory_show", showDesc, true, s.show),
		addTool(s, "memory_add", addDesc(), false, s.add),
		addTool(s, "memory_forget", forgetDesc, false, s.forget),
		addTool(s, "memory_list", listDesc, true, s.list),
		addTool(s, "memory_timeline", timelineDesc, true, s.timeline),
		addTool(s, "memory_stats", statsDesc, true, s.stats),
	)
}

// agentInput selects a subagent's own memory instead of the project's,
// so that agents without memory per agent type get the same separation.
type agentInput struct {
	AgentType string `json:"agent_type,omitempty" jsonschema:"a subagent type (e.g. code-reviewer): use that agent's own memory instead of the project's; memories never cross agent types"`
	Scope     string `json:"scope,omitempty" jsonschema:"with agent_type: user (every project), project (committed with it) or local (this machine); needed when that agent has memory in more than one"`
}

func (a agentInput) agent() Agent { return Agent{Type: a.AgentType, Scope: a.Scope} }

// refInput names one memory.
type refInput struct {
	agentInput
	NameOrFile string `json:"name_or_file" jsonschema:"the memory's name (e.g. Testing policy) or file name (e.g. feedback_testing_policy.md)"`
	Team       bool   `json:"team,omitempty" jsonschema:"the memory is in the project's team memory (results marked scope: team); memory_show also looks there when the user's own memory has no such memory"`
}

func (s *Server) show(ctx context.Context, req *mcp.CallToolRequest, in refInput) (*mcp.CallToolResult, topicView, error) {
	p, err := s.project(ctx, req.Session, in.agent())
	if err != nil {
		return nil, topicView{}, err
	}
	d, file, scope, err := s.find(p, in.NameOrFile, in.Team, true)
	if err != nil {
		return nil, topicView{}, err
	}
	t, err := d.Read(file)
	if err != nil {
		return nil, topicView{}, err
	}
	// Shown is recalled, as with `memdir show`: the server's index counts
	// it in memory and writes the counts in batches, never on this read.
	s.index(d, p.Semantic).Recall(file)
	return nil, topicView{TopicView: t.View(true), Scope: scope}, nil
}

// forgetOutput says which file was removed.
type forgetOutput struct {
	Removed string `json:"removed" jsonschema:"the topic file that was deleted"`
}

func (s *Server) forget(ctx context.Context, req *mcp.CallToolRequest, in refInput) (*mcp.CallToolResult, forgetOutput, error) {
	p, err := s.project(ctx, req.Session, in.agent())
	if err != nil {
		return nil, forgetOutput{}, err
	}
	d, file, _, err := s.find(p, in.NameOrFile, in.Team, false)
	if err != nil {
		return nil, forgetOutput{}, err
	}
	err = d.Remove(file)
	if err != nil {
		return nil, forgetOutput{}, err
	}
	return nil, forgetOutput{Removed: file}, nil
}

// listInput filters memory_list.
type listInput struct {
	agentInput
	Type memoryType `json:"type,omitempty" jsonschema:"only memories of this type"`
	Team bool       `json:"team,omitempty" jsonschema:"only the project's team memory (by default it is listed after the user's own, marked scope: team)"`
}

// listOutput is every memory, without bodies.
type listOutput struct {
	Topics  []topicView `json:"topics"`
	Skipped []string    `json:"skipped,omitempty" jsonschema:"topic files that could not be read or parsed, and why"`
}

func (s *Server) list(ctx context.Context, req *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, listOutput, error) {
	out := listOutput{Topics: []topicView{}}
	only, err := parseType(in.Type, true)
	if err != nil {
		return nil, out, err
	}
	p, err := s.project(ctx, req.Session, in.agent())
	if err != nil {
		return nil, out, err
	}
	var team *Team
	if in.Team {
		if team, err = s.teamOnly(p, false); err != nil {
			return nil, out, err
		}
	} else {
		team = s.team(p)
		if err := listDir(&out, p.Dir, only, ""); err != nil {
			return nil, out, err
		}
	}
	if team != nil {
		if err := listDir(&out, team.Dir, only, ScopeTeam); err != nil {
			return nil, out, err
		}
	}
	return nil, out, nil
}

// listDir appends the memories of d (of type only, when set) to out.
func listDir(out *listOutput, d *memdir.Dir, only typesx.Type, scope string) error {
	if !d.Exists() {
		return nil
	}
	topics, problems, err := d.List()
	if err != nil {
		return err
	}
	for _, pr := range problems {
		out.Skipped = append(out.Skipped, pr.String())
	}
	for _, t := range topics {
		if only == "" || t.Type == only {
			out.Topics = append(out.Topics, topicView{TopicView: t.View(false), Scope: scope})
		}
	}
	return nil
}

// parseType reads a memory type; "" is no type, allowed when optional.
func parseType(t memoryType, optional bool) (typesx.Type, error) {
	if t == "" && optional {
		return "", nil
	}
	return typesx.Parse(string(t))
}
