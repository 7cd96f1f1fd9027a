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
}

// add records a memory through the store, exactly as `memdir add` does:
// validate, claim a new memory directory, then add under the lock (live
// mode) or append to today's log (log mode).
func (s *Server) add(ctx context.Context, req *mcp.CallToolRequest, in addInput) (*mcp.CallToolResult, memdir.AddResult, error) {
	t, err := parseType(in.Type, false)
	if err != nil {
		return nil, memdir.AddResult{}, err
	}
	ar := memdir.AddRequest{
		Type: t, Name: in.Name, Text: in.Text, Description: in.Description,
		Why: in.Why, How: in.How, Tags: in.Tags, Private: in.Private,
	}
	if err := ar.Validate(); err != nil {
		return nil, memdir.AddResult{}, refusal(err)
	}
	p, err := s.project(ctx, req.Session, in.agent())
	if err != nil {
		return nil, memdir.AddResult{}, err
	}
	if p.Claim != nil {
		if err := p.Claim(); err != nil {
			return nil, memdir.AddResult{}, err
		}
	}
	res, err := p.Dir.Add(ar)
	p.wrote()
	if err != nil {
		return nil, memdir.AddResult{}, refusal(err)
	}
	return nil, res, nil
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
