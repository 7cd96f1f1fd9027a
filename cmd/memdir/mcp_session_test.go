package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPSeesDirectEdits: a topic edited, created or deleted by hand is
// seen by the very next call.
func TestMCPSeesDirectEdits(t *testing.T) {
	e := newMCPEnv(t)
	ctx := testCtx(t)
	cs := e.connect(ctx, nil, nil, "")
	callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "reference", "name": "Deploy runbook", "text": "The runbook is in the ops wiki.",
	})
	callOK[topic](t, ctx, cs, "memory_show", map[string]any{"name_or_file": "Deploy runbook"})
	dir := e.memoryDir("")
	edited := "---\nname: Deploy runbook\ndescription: Moved to the handbook\ntype: reference\n---\n\nThe runbook moved to handbook/deploy.md.\n"
	if err := os.WriteFile(filepath.Join(dir, "reference_deploy_runbook.md"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := callOK[topic](t, ctx, cs, "memory_show", map[string]any{"name_or_file": "Deploy runbook"}); got.Body != "The runbook moved to handbook/deploy.md.\n" &&
		got.Body != "The runbook moved to handbook/deploy.md." {
		t.Errorf("show after an edit: body %q", got.Body)
	}
	if got := readResource(t, ctx, cs, "memdir://topic/reference_deploy_runbook.md"); got != edited {
		t.Errorf("resource after an edit = %q", got)
	}
	hand := "---\nname: On-call\ndescription: Who is on call\ntype: reference\n---\n\nPagerDuty schedule ops-primary.\n"
	if err := os.WriteFile(filepath.Join(dir, "reference_on_call.md"), []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := callOK[searchResult](t, ctx, cs, "memory_search", map[string]any{"query": "PagerDuty"}); len(r.Results) != 1 {
		t.Errorf("search for a topic written by hand = %v", r.files())
	}
	l := callOK[listResult](t, ctx, cs, "memory_list", nil)
	if !slices.Equal(files(l), []string{"reference_deploy_runbook.md", "reference_on_call.md"}) || l.Topics[0].Description != "Moved to the handbook" {
		t.Errorf("list after edits = %+v", l.Topics)
	}
	if err := os.Remove(filepath.Join(dir, "reference_on_call.md")); err != nil {
		t.Fatal(err)
	}
	callErr(t, ctx, cs, "memory_show", map[string]any{"name_or_file": "On-call"})
	testSearchSeesEdit(t, ctx, cs, dir)
}

// TestMCPConcurrentCLIWrites: real `memdir add` processes write while the
// session adds too; every memory lands, and the index stays whole.
func TestMCPConcurrentCLIWrites(t *testing.T) {
	e := newMCPEnv(t)
	ctx := testCtx(t)
	cs := e.connect(ctx, nil, nil, "")
	const n = 12
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			name, text := uniqueMemory(2 * i)
			if out, err := e.command("", "add", "project", name, text).CombinedOutput(); err != nil {
				errs <- fmt.Errorf("memdir add %q: %v: %s", name, err, out)
			}
		}()
		go func() {
			defer wg.Done()
			name, text := uniqueMemory(2*i + 1)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_add",
				Arguments: map[string]any{"type": "project", "name": name, "text": text}})
			if err == nil && res.IsError {
				err = fmt.Errorf("tool error: %s", text)
			}
			if err != nil {
				errs <- fmt.Errorf("memory_add %q: %v", name, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	l := callOK[listResult](t, ctx, cs, "memory_list", nil)
	if len(l.Topics) != 2*n {
		t.Fatalf("list has %d topics after %d adds: %v", len(l.Topics), 2*n, files(l))
	}
	ix := readResource(t, ctx, cs, "memdir://index")
	for _, tp := range l.Topics {
		if !strings.Contains(ix, "("+tp.File+")") {
			t.Errorf("index lacks %s:\n%s", tp.File, ix)
		}
	}
	if out, err := e.command("", "index", "--check").CombinedOutput(); err != nil {
		t.Errorf("index --check: %v\n%s", err, out)
	}
}

// uniqueMemory is a name and text sharing no word with any other i, so
// that no two are near-duplicates.
func uniqueMemory(i int) (name, text string) {
	w := func(k int) string {
		n := i*8 + k + 27
		var b []byte
		for ; n > 0; n /= 26 {
			b = append(b, byte('a'+n%26))
		}
		return "q" + string(b)
	}
	return w(0) + " " + w(1), w(2) + " " + w(3) + " " + w(4) + "."
}

// TestMCPRoots: the first file:// root the client lists is the project,
// and a change of roots moves the server to the new one.
func TestMCPRoots(t *testing.T) {
	e := newMCPEnv(t)
	a, b := filepath.Join(e.home, "..", "a"), filepath.Join(e.home, "..", "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx := testCtx(t)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v1"}, nil)
	c.AddRoots(&mcp.Root{URI: "file://" + filepath.ToSlash(a), Name: "a"})
	cs := e.connect(ctx, c, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}, "")
	callOK[addResult](t, ctx, cs, "memory_add", map[string]any{"type": "user", "name": "Role", "text": "Tech lead."})
	if _, err := os.Stat(filepath.Join(e.memoryDir(a), "user_role.md")); err != nil {
		t.Errorf("the memory did not land in the root's project: %v", err)
	}
	if _, err := os.Stat(e.memoryDir("")); !os.IsNotExist(err) {
		t.Errorf("the server's own project got memory: %v", err)
	}
	c.RemoveRoots("file://" + filepath.ToSlash(a))
	c.AddRoots(&mcp.Root{URI: "file://" + filepath.ToSlash(b), Name: "b"})
	if l := callOK[listResult](t, ctx, cs, "memory_list", nil); len(l.Topics) != 0 {
		t.Errorf("after the roots changed to b, list = %v", files(l))
	}
	callOK[addResult](t, ctx, cs, "memory_add", map[string]any{"type": "user", "name": "Editor", "text": "Uses vim."})
	if _, err := os.Stat(filepath.Join(e.memoryDir(b), "user_editor.md")); err != nil {
		t.Errorf("the memory did not land in the new root's project: %v", err)
	}
	// --cwd names the project: roots are not followed.
	cs2 := e.connect(ctx, c, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}, "", "--cwd", a)
	if l := callOK[listResult](t, ctx, cs2, "memory_list", nil); !slices.Equal(files(l), []string{"user_role.md"}) {
		t.Errorf("with --cwd a, list = %v", files(l))
	}
}

// TestMCPMalformed writes raw bytes to the server: every bad line gets a
// JSON-RPC error response, the session goes on, and standard output
// carries nothing but protocol messages.
func TestMCPMalformed(t *testing.T) {
	e := newMCPEnv(t)
	cmd := e.command("", "mcp")
	cmd.Stderr = &testLog{t}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewScanner(outPipe)
	out.Buffer(nil, 1<<20)
	exchange := func(line string) map[string]any {
		t.Helper()
		if _, err := fmt.Fprintln(in, line); err != nil {
			t.Fatal(err)
		}
		if !out.Scan() {
			t.Fatalf("no response to %q: %v", line, out.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("response %q to %q is not JSON-RPC: %v", out.Bytes(), line, err)
		}
		return m
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	for _, tc := range []struct {
		line string
		code float64
		id   any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{`, -32700, nil},
		{"\x00\xff garbage", -32700, nil},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, nil},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, -32600, float64(3)},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":4,"method":"initialize","params":"nope"}`, -32602, float64(4)},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`, -32600, float64(5)}, // before initialize
	} {
		m := exchange(tc.line)
		if code(m) != tc.code || m["id"] != tc.id {
			t.Errorf("%q: got %v, want code %v id %v", tc.line, m, tc.code, tc.id)
		}
	}
	init := exchange(`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if init["result"] == nil {
		t.Fatalf("initialize after bad lines: %v", init)
	}
	if _, err := fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		t.Fatal(err)
	}
	if m := exchange(`{"jsonrpc":"2.0","id":8,"method":"no/such/method","params":{}}`); code(m) != -32601 {
		t.Errorf("unknown method: %v, want code -32601", m)
	}
	call := exchange(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"memory_list","arguments":{"type":7}}}`)
	if res, _ := call["result"].(map[string]any); res["isError"] != true {
		t.Errorf("memory_list with a bad argument: %v, want a tool error", call)
	}
	in.Close()
	if out.Scan() {
		t.Errorf("more output after the last response: %q", out.Bytes())
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("memdir mcp exited with %v after its input closed", err)
	}
}
