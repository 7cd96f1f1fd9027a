package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errNoSearch is the tool error of the recall tools while this build has
// no search engine.
var errNoSearch = errors.New("search is not available in this build")

// searchInput is a memory_search query.
type searchInput struct {
	Query string     `json:"query" jsonschema:"words to look for; \"exact phrases\", prefix*, OR, NOT and parentheses work"`
	Type  memoryType `json:"type,omitempty" jsonschema:"only memories of this type"`
	Limit int        `json:"limit,omitempty" jsonschema:"at most this many results (default 10)"`
	Since string     `json:"since,omitempty" jsonschema:"only memories changed on or after this date: YYYY-MM-DD, today, yesterday or Nd (N days ago)"`
	Until string     `json:"until,omitempty" jsonschema:"only memories changed on or before this date, in the same forms"`
}

func (s *Server) search(ctx context.Context, req *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, any, error) {
	return nil, nil, errNoSearch
}

// timelineInput is the point memory_timeline looks around.
type timelineInput struct {
	Around string `json:"around,omitempty" jsonschema:"a date (YYYY-MM-DD, today, yesterday, Nd) or a memory's name or file; default: now"`
}

func (s *Server) timeline(ctx context.Context, req *mcp.CallToolRequest, in timelineInput) (*mcp.CallToolResult, any, error) {
	return nil, nil, errNoSearch
}

func (s *Server) stats(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
	return nil, nil, errNoSearch
}
