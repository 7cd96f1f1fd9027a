package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests here run `memdir mcp` as a real process (the test binary, put
// on PATH as memdir by testscript.Main in TestMain) and talk to it through
// the SDK's client over its standard input and output.

// mcpEnv is an isolated home and project for one test.
type mcpEnv struct {
	t    *testing.T
	home string
	proj string
	env  []string
}

func newMCPEnv(t *testing.T) *mcpEnv {
	t.Helper()
	work := t.TempDir()
	e := &mcpEnv{t: t, home: filepath.Join(work, "home"), proj: filepath.Join(work, "proj")}
	for _, d := range []string{e.home, e.proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MEMDIR_") && !strings.HasPrefix(kv, "GIT_") {
			e.env = append(e.env, kv)
		}
	}
	e.env = append(e.env, "HOME="+e.home, "MEMDIR_HOME="+filepath.Join(e.home, ".memdir"),
		"MEMDIR_MANAGED_CONFIG="+filepath.Join(work, "etc", "config.yaml"), "TZ=UTC",
		"MEMDIR_NOW=2026-11-22T10:04:05Z", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(e.home, ".gitconfig"))
	return e
}

// command is memdir with args, run in dir (the project when "").
func (e *mcpEnv) command(dir string, args ...string) *exec.Cmd {
	c := exec.Command("memdir", args...)
	c.Dir = dir
	if dir == "" {
		c.Dir = e.proj
	}
	c.Env = e.env
	return c
}

// run runs a memdir command to completion and returns its standard
// output.
func (e *mcpEnv) run(dir string, args ...string) string {
	e.t.Helper()
	c := e.command(dir, args...)
	var errb strings.Builder
	c.Stderr = &errb
	out, err := c.Output()
	if err != nil {
		e.t.Fatalf("memdir %s: %v\n%s%s", strings.Join(args, " "), err, out, errb.String())
	}
	return string(out)
}

// memoryDir is where the project in dir keeps its memory.
func (e *mcpEnv) memoryDir(dir string) string {
	e.t.Helper()
	var p struct{ Dir string }
	if err := json.Unmarshal([]byte(e.run(dir, "path", "--json")), &p); err != nil {
		e.t.Fatal(err)
	}
	return p.Dir
}

// connect starts `memdir mcp args...` in dir and opens a client session.
func (e *mcpEnv) connect(ctx context.Context, c *mcp.Client, opts *mcp.ClientSessionOptions, dir string, args ...string) *mcp.ClientSession {
	e.t.Helper()
	if c == nil {
		c = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v1"}, nil)
	}
	cmd := e.command(dir, append([]string{"mcp"}, args...)...)
	cmd.Stderr = &testLog{e.t}
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, opts)
	if err != nil {
		e.t.Fatalf("connect: %v", err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

// testLog sends the server's standard error to the test log.
type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Logf("memdir mcp: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// call calls a tool and returns its result, failing on a protocol error.
func call(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// callOK calls a tool that must succeed and decodes its structured result.
func callOK[T any](t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) T {
	t.Helper()
	res := call(t, ctx, cs, name, args)
	var out T
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, text(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		t.Fatalf("%s: decode %s: %v", name, data, err)
	}
	return out
}

// callErr calls a tool that must fail with a tool error and returns its
// message.
func callErr(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res := call(t, ctx, cs, name, args)
	if !res.IsError {
		t.Fatalf("%s: got success %s, want a tool error", name, text(res))
	}
	return text(res)
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

type addResult struct {
	Action  string `json:"action"`
	File    string `json:"file"`
	Log     string `json:"log"`
	Matched string `json:"matched"`
}

type topic struct {
	File, Name, Description, Type, Body string
	Private                             bool
	Tags                                []string
}

type listResult struct {
	Topics  []topic  `json:"topics"`
	Skipped []string `json:"skipped"`
}

func files(l listResult) []string {
	var out []string
	for _, t := range l.Topics {
		out = append(out, t.File)
	}
	slices.Sort(out)
	return out
}

func readResource(t *testing.T, ctx context.Context, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d contents, want 1", uri, len(res.Contents))
	}
	return res.Contents[0].Text
}
