package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPTools calls every tool and reads every resource of a live-mode
// project.
func TestMCPTools(t *testing.T) {
	e := newMCPEnv(t)
	ctx := testCtx(t)
	cs := e.connect(ctx, nil, nil, "")

	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		if len(tool.Description) < 100 {
			t.Errorf("%s: description %q is too short to teach when to use it", tool.Name, tool.Description)
		}
	}
	slices.Sort(names)
	want := []string{"memory_add", "memory_forget", "memory_list", "memory_search", "memory_show", "memory_stats", "memory_timeline"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}

	// An empty project lists nothing and shows nothing.
	if l := callOK[listResult](t, ctx, cs, "memory_list", nil); len(l.Topics) != 0 {
		t.Fatalf("empty project lists %v", l.Topics)
	}
	callErr(t, ctx, cs, "memory_show", map[string]any{"name_or_file": "Testing policy"})

	add := callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "feedback", "name": "Testing policy", "text": "Integration tests hit a real database, never mocks.",
		"why": "a mocked suite hid a broken migration", "how": "use the db fixture", "tags": []string{"tests"},
	})
	if add.Action != "created" || add.File != "feedback_testing_policy.md" {
		t.Fatalf("add = %+v", add)
	}
	// The same memory again changes nothing; a near-duplicate updates it.
	if again := callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "feedback", "name": "testing policy", "text": "Integration tests hit a real database, never mocks.",
	}); again.Action != "unchanged" {
		t.Errorf("second add = %+v, want unchanged", again)
	}
	if sim := callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "feedback", "name": "Testing policy rules", "text": "Run them with -race.",
		"description": "Integration tests hit a real database, never mocks",
	}); sim.Action != "updated" || sim.File != add.File || sim.Matched != "similar" {
		t.Errorf("near-duplicate add = %+v, want an update of %s", sim, add.File)
	}
	callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "user", "name": "Role", "text": "Senior Go engineer, new to the React side.",
	})
	callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "project", "name": "Salary bands", "text": "Bands are confidential.", "private": true,
	})

	show := callOK[topic](t, ctx, cs, "memory_show", map[string]any{"name_or_file": "testing policy"})
	if show.File != add.File || !strings.Contains(show.Body, "**Why:** a mocked suite hid a broken migration") ||
		!strings.Contains(show.Body, "Run them with -race.") || !slices.Equal(show.Tags, []string{"tests"}) {
		t.Errorf("show = %+v", show)
	}
	if l := callOK[listResult](t, ctx, cs, "memory_list", nil); !slices.Equal(files(l),
		[]string{"feedback_testing_policy.md", "project_salary_bands.md", "user_role.md"}) {
		t.Errorf("list = %v", files(l))
	}
	if l := callOK[listResult](t, ctx, cs, "memory_list", map[string]any{"type": "user"}); !slices.Equal(files(l), []string{"user_role.md"}) {
		t.Errorf("list --type user = %v", files(l))
	}
	if msg := callErr(t, ctx, cs, "memory_list", map[string]any{"type": "bogus"}); !strings.Contains(msg, "type") {
		t.Errorf("list with a bad type: %s", msg)
	}

	// The index resource is MEMORY.md as an agent loads it: the private
	// topic is not in it. Topic files are resources too.
	ix := readResource(t, ctx, cs, "memdir://index")
	var view struct{ Text string }
	if err := json.Unmarshal([]byte(e.run("", "index", "--json")), &view); err != nil {
		t.Fatal(err)
	}
	if ix != view.Text {
		t.Errorf("index resource:\n%q\nwant (memdir index --json):\n%q", ix, view.Text)
	}
	if !strings.Contains(ix, "(feedback_testing_policy.md)") || strings.Contains(ix, "salary") {
		t.Errorf("index resource:\n%s", ix)
	}
	dir := e.memoryDir("")
	disk, err := os.ReadFile(filepath.Join(dir, "user_role.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := readResource(t, ctx, cs, "memdir://topic/user_role.md"); got != string(disk) {
		t.Errorf("topic resource = %q, want the file %q", got, disk)
	}
	for _, uri := range []string{"memdir://topic/nope.md", "memdir://topic/..%2FMEMORY.md", "memdir://topic/MEMORY.md"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s: no error", uri)
		}
	}

	forgot := callOK[struct{ Removed string }](t, ctx, cs, "memory_forget", map[string]any{"name_or_file": "Role"})
	if forgot.Removed != "user_role.md" {
		t.Errorf("forget = %+v", forgot)
	}
	if _, err := os.Stat(filepath.Join(dir, "user_role.md")); !os.IsNotExist(err) {
		t.Errorf("user_role.md still there after forget: %v", err)
	}
	callErr(t, ctx, cs, "memory_forget", map[string]any{"name_or_file": "Role"})
	if msg := callErr(t, ctx, cs, "memory_show", map[string]any{"name_or_file": "../../etc/passwd"}); !strings.Contains(msg, "not a topic") {
		t.Errorf("show of a path: %s", msg)
	}
	if out := e.run("", "index", "--check"); strings.TrimSpace(out) != "" && !strings.Contains(out, "ok") {
		t.Errorf("index --check after the session: %s", out)
	}
	testRecallTools(t, ctx, cs)
}

// TestMCPSecretRefused: a memory holding a credential is a tool error that
// says why, and nothing is written.
func TestMCPSecretRefused(t *testing.T) {
	e := newMCPEnv(t)
	ctx := testCtx(t)
	cs := e.connect(ctx, nil, nil, "")
	token := "ghp_" + strings.Repeat("aB3dE5gH7j", 3) + "kLmNoP"
	msg := callErr(t, ctx, cs, "memory_add", map[string]any{
		"type": "reference", "name": "CI token", "text": "The CI token is " + token,
	})
	if !strings.Contains(msg, "secrets never go into memory") || !strings.Contains(msg, "nothing was saved") ||
		strings.Contains(msg, token) || strings.Contains(msg, "--allow-secret") {
		t.Errorf("refusal = %q", msg)
	}
	if _, err := os.Stat(e.memoryDir("")); !os.IsNotExist(err) {
		t.Errorf("the memory directory exists after a refused add: %v", err)
	}
	// Private spans are dropped, never stored.
	callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "project", "name": "Launch", "text": "Launch is on 2026-12-01. <private>code name Bluebird</private>",
	})
	body := callOK[topic](t, ctx, cs, "memory_show", map[string]any{"name_or_file": "Launch"}).Body
	if strings.Contains(body, "Bluebird") || !strings.Contains(body, "2026-12-01") {
		t.Errorf("body = %q", body)
	}
}

// TestMCPLogMode: in log mode memory_add appends to today's daily log.
func TestMCPLogMode(t *testing.T) {
	e := newMCPEnv(t)
	e.env = append(e.env, "MEMDIR_MODE=log")
	ctx := testCtx(t)
	cs := e.connect(ctx, nil, nil, "")
	res := callOK[addResult](t, ctx, cs, "memory_add", map[string]any{
		"type": "project", "name": "Release freeze", "text": "Merge freeze begins 2026-11-26.",
	})
	if res.Action != "logged" || res.Log != "logs/2026/11/2026-11-22.md" {
		t.Fatalf("add in log mode = %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(e.memoryDir(""), filepath.FromSlash(res.Log)))
	if err != nil || !strings.Contains(string(data), "[project] Release freeze: Merge freeze begins 2026-11-26.") {
		t.Errorf("log = %q, %v", data, err)
	}
}
