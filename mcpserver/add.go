package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/memdir"
)

// addInput is a memory to record, as `memdir add` takes it.
type addInput struct {
	agentInput
	Type        memoryType `json:"type" jsonschema:"user: who the user is; feedback: how to do the work; project: facts and decisions about the work; reference: where to find things"`
	Name        string     `json:"name" jsonschema:"a short title, 1 to 100 characters, e.g. Testing policy"`
	Text        string     `json:"text" jsonschema:"the memory itself: the rule, fact or pointer, in a sentence or a few"`
	Description string     `json:"description,omitempty" jsonschema:"one line for the index (default: the text's first sentence)"`
	Why         string     `json:"why,omitempty" jsonschema:"why it matters (for feedback and project memories)"`
	How         string     `json:"how,omitempty" jsonschema:"how to apply it"`
	Tags        []string   `json:"tags,omitempty" jsonschema:"short words to find it by"`
	Private     bool       `json:"private,omitempty" jsonschema:"keep it out of the index, the session-start context and default search results"`
	Team        bool       `json:"team,omitempty" jsonschema:"save it to the project's team memory, committed with the project and seen by everyone who works in it: only facts the whole team needs, never anything personal, private or secret"`
}

// add records a memory through the store, exactly as `memdir add` does:
// validate, claim a new memory directory, then add under the lock (live
// mode) or append to today's log (log mode).
func (s *Server) add(ctx context.Context, req *mcp.CallToolRequest, in addInput) (*mcp.CallToolResult, addOutput, error) {
	t, err := parseType(in.Type, false)
	if err != nil {
		return nil, addOutput{}, err
	}
	if in.Team && in.Private {
		return nil, addOutput{}, errors.New("team and private: team memory is shared with everyone in the project; nothing was saved: save a private memory without team")
	}
	ar := memdir.AddRequest{
		Type: t, Name: in.Name, Text: in.Text, Description: in.Description,
		Why: in.Why, How: in.How, Tags: in.Tags, Private: in.Private,
	}
	if err := ar.Validate(); err != nil {
		return nil, addOutput{}, refusal(err)
	}
	p, err := s.project(ctx, req.Session, in.agent())
	if err != nil {
		return nil, addOutput{}, err
	}
	d, scope, err := s.addTarget(p, in.Team)
	if err != nil {
		return nil, addOutput{}, err
	}
	res, err := d.Add(ar)
	if err != nil {
		return nil, addOutput{}, refusal(err)
	}
	return nil, addOutput{AddResult: res, Scope: scope}, nil
}

// addTarget is the directory memory_add writes to: the team's, made on
// first write, or the person's own, claimed for the project.
func (s *Server) addTarget(p *Project, team bool) (*memdir.Dir, string, error) {
	if team {
		t, err := s.teamOnly(p, true)
		if err != nil {
			return nil, "", err
		}
		return t.Dir, ScopeTeam, nil
	}
	if p.Claim != nil {
		if err := p.Claim(); err != nil {
			return nil, "", err
		}
	}
	return p.Dir, "", nil
}

// refusal words a refused memory for an agent: a secret is never stored,
// whatever the agent tries next.
func refusal(err error) error {
	var se *memdir.SecretError
	if errors.As(err, &se) {
		return fmt.Errorf("%w; nothing was saved: remove the secret (say where it is kept instead) and add the memory again", se)
	}
	return err
}
