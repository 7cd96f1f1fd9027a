package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one MCP server under test.
type server interface {
	name() string
	command() *exec.Cmd
	add(ctx context.Context, s *mcp.ClientSession, m memory) error
	search(ctx context.Context, s *mcp.ClientSession, word string) (json.RawMessage, error)
	found(hits json.RawMessage, m memory) bool
}

// connect starts a server and opens a client session with it.
func connect(ctx context.Context, s server) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "benchmcp", Version: "v1"}, nil)
	return c.Connect(ctx, &mcp.CommandTransport{Command: s.command()}, nil)
}

// callTool calls a tool and returns its structured result.
func callTool(ctx context.Context, s *mcp.ClientSession, name string, args any) (json.RawMessage, error) {
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		return nil, fmt.Errorf("tool error: %s", b.String())
	}
	return json.Marshal(res.StructuredContent)
}

// initialize is the first message of a legacy-handshake client, as the
// agents of today send it.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
	`"capabilities":{},"clientInfo":{"name":"benchmcp","version":"1"}}}` + "\n"

// spawnToInit spawns the server and returns the time from the spawn to
// its initialize response.
func spawnToInit(ctx context.Context, s server) (time.Duration, error) {
	cmd := s.command()
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		in.Close()
		if cmd.Wait() != nil {
			_ = cmd.Process.Kill()
		}
	}()
	if _, err := io.WriteString(in, initialize); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	d := time.Since(start)
	if err != nil || !strings.Contains(line, `"result"`) {
		return 0, fmt.Errorf("no initialize result: %q, %v", line, err)
	}
	return d, ctx.Err()
}

// memdirServer is `memdir mcp` over a seeded memory directory.
type memdirServer struct {
	bin, proj, dir string
	env            []string
}

func newMemdirServer(work, bin string, mems []memory, raw bool) (*memdirServer, error) {
	s := &memdirServer{bin: bin, proj: filepath.Join(work, "proj"), dir: filepath.Join(work, "memdir-memory")}
	s.env = env(work, "MEMDIR_DIR="+s.dir)
	if err := os.MkdirAll(s.proj, 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, err
	}
	lines := map[string][]string{}
	for i, m := range mems {
		stamp := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
		desc := strings.SplitN(m.text, ".", 2)[0]
		data := fmt.Sprintf("---\nname: %s\ndescription: %s\ntype: %s\ncreated: %s\nmodified: %s\n---\n\n%s\n",
			m.name, desc, m.typ, stamp, stamp, m.text)
		file := m.typ + "_" + slug(m.name) + ".md"
		if err := os.WriteFile(filepath.Join(s.dir, file), []byte(data), 0o644); err != nil {
			return nil, err
		}
		lines[m.typ] = append(lines[m.typ], fmt.Sprintf("- [%s](%s) — %s\n", m.name, file, desc))
	}
	if raw {
		// One line per memory, grouped by type, all in MEMORY.md: past
		// its caps, where every add rewrites the whole file.
		var b strings.Builder
		for _, t := range []string{"user", "feedback", "reference", "project"} {
			b.WriteString(strings.Join(lines[t], ""))
		}
		return s, os.WriteFile(filepath.Join(s.dir, "MEMORY.md"), []byte(b.String()), 0o644)
	}
	// The index as memdir writes it: `memdir index --rebuild`, which fits
	// an index that would be over its caps.
	cmd := s.command()
	cmd.Args = []string{bin, "index", "--rebuild"}
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("memdir index --rebuild: %v: %s", err, out)
	}
	return s, nil
}

func (s *memdirServer) name() string { return "memdir" }

func (s *memdirServer) command() *exec.Cmd {
	cmd := exec.Command(s.bin, "mcp")
	cmd.Dir, cmd.Env = s.proj, s.env
	return cmd
}

func (s *memdirServer) add(ctx context.Context, cs *mcp.ClientSession, m memory) error {
	res, err := callTool(ctx, cs, "memory_add", map[string]any{"type": m.typ, "name": m.name, "text": m.text})
	if err != nil {
		return err
	}
	var r struct{ Action string }
	if err := json.Unmarshal(res, &r); err != nil || r.Action != "created" {
		return fmt.Errorf("add gave %s, want a new topic", res)
	}
	return nil
}

func (s *memdirServer) search(ctx context.Context, cs *mcp.ClientSession, word string) (json.RawMessage, error) {
	return callTool(ctx, cs, "memory_search", map[string]any{"query": word})
}

func (s *memdirServer) found(hits json.RawMessage, m memory) bool {
	var r struct{ Results []struct{ File string } }
	if json.Unmarshal(hits, &r) != nil {
		return false
	}
	return len(r.Results) > 0 && r.Results[0].File == m.typ+"_"+slug(m.name)+".md"
}

// peerServer is @modelcontextprotocol/server-memory over a seeded graph.
type peerServer struct {
	argv []string
	env  []string
}

func newPeerServer(work, command string, mems []memory) (*peerServer, error) {
	file := filepath.Join(work, "peer-memory.jsonl")
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, m := range mems {
		if err := enc.Encode(map[string]any{"type": "entity", "name": m.name, "entityType": m.typ, "observations": []string{m.text}}); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	return &peerServer{argv: strings.Fields(command), env: env(work, "MEMORY_FILE_PATH="+file)}, nil
}

func (s *peerServer) name() string { return "server-memory" }

func (s *peerServer) command() *exec.Cmd {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = s.env
	return cmd
}

func (s *peerServer) add(ctx context.Context, cs *mcp.ClientSession, m memory) error {
	_, err := callTool(ctx, cs, "create_entities", map[string]any{"entities": []any{
		map[string]any{"name": m.name, "entityType": m.typ, "observations": []string{m.text}}}})
	return err
}

func (s *peerServer) search(ctx context.Context, cs *mcp.ClientSession, word string) (json.RawMessage, error) {
	return callTool(ctx, cs, "search_nodes", map[string]any{"query": word})
}

func (s *peerServer) found(hits json.RawMessage, m memory) bool {
	var r struct{ Entities []struct{ Name string } }
	if json.Unmarshal(hits, &r) != nil {
		return false
	}
	return slices.ContainsFunc(r.Entities, func(e struct{ Name string }) bool { return e.Name == m.name })
}
