package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

// Resource addresses.
const (
	IndexURI    = "memdir://index"
	topicPrefix = "memdir://topic/"
	TopicURI    = topicPrefix + "{file}"
)

// addResources registers the index and the topic-file template.
func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{
		URI: IndexURI, Name: "MEMORY.md", Title: "Memory index", MIMEType: "text/markdown",
		Description: "This project's memory index exactly as an agent loads it at session start " +
			"(at most 200 lines and 25,000 bytes, with a warning naming what was cut). Each line links " +
			"a topic file; read one as " + topicPrefix + "<file>.",
	}, s.readIndex)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: TopicURI, Name: "topic", Title: "Memory topic file", MIMEType: "text/markdown",
		Description: "One topic file of this project's memory (frontmatter and text), or an overflow " +
			"index MEMORY-<type>.md, by file name as the index links it.",
	}, s.readTopic)
}

func (s *Server) readIndex(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	p, err := s.project(ctx, req.Session)
	if err != nil {
		return nil, internalError(err)
	}
	data, err := p.Dir.IndexBytes()
	if err != nil {
		return nil, internalError(err)
	}
	v := index.Load(data, index.DefaultCaps)
	return textResult(req.Params.URI, v.Text), nil
}

func (s *Server) readTopic(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	file, ok := topicFile(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	p, err := s.project(ctx, req.Session)
	if err != nil {
		return nil, internalError(err)
	}
	// A topic linked out of the memory directory is never read.
	data, err := atomicfile.ReadInside(p.Dir.Path, file)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, atomicfile.ErrOutside) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, internalError(fmt.Errorf("read %s: %w", file, err))
	}
	return textResult(uri, string(data)), nil
}

// topicFile is the file a topic URI names, when it names a topic file or
// an overflow index directly inside the memory directory.
func topicFile(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, topicPrefix)
	if !ok {
		return "", false
	}
	file, err := url.PathUnescape(rest)
	if err != nil || file == "" || strings.ContainsAny(file, "/\\\x00") || strings.Contains(file, "..") {
		return "", false
	}
	if _, overflow := index.IsOverflowFile(file); !overflow && !memdir.IsTopicFile(file) {
		return "", false
	}
	return file, true
}

func textResult(uri, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}
}

// internalError is a failed resource read as a JSON-RPC error with a code
// (the SDK would send a plain error with code 0).
func internalError(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}
