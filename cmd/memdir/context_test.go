package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContextClaudeHook checks that --format claude-hook prints exactly the
// JSON a Claude Code SessionStart hook returns, carrying the same text as
// --format text.
func TestContextClaudeHook(t *testing.T) {
	work := t.TempDir()
	proj := filepath.Join(work, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("Use Go.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"HOME": work, "MEMDIR_HOME": filepath.Join(work, ".memdir"), "MEMDIR_DIR": filepath.Join(work, "mem"),
		"MEMDIR_MANAGED_CONFIG": filepath.Join(work, "none.yaml"), "MEMDIR_NOW": "2026-11-22T10:04:05Z",
	}
	getenv := func(k string) string { return env[k] }
	memdir := func(args ...string) string {
		t.Helper()
		var out, errw bytes.Buffer
		if code := run(append([]string{"--cwd", proj}, args...), strings.NewReader(""), &out, &errw, getenv); code != 0 {
			t.Fatalf("memdir %v: exit %d: %s", args, code, errw.String())
		}
		return out.String()
	}
	memdir("add", "feedback", "Testing policy", "Integration tests hit a real database.")
	text := memdir("context", "--agent", "claude")
	raw := memdir("context", "--agent", "claude", "--format", "claude-hook")

	var got map[string]map[string]any
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("claude-hook output is not JSON: %v\n%s", err, raw)
	}
	hook, ok := got["hookSpecificOutput"]
	if !ok || len(got) != 1 {
		t.Fatalf("want one key hookSpecificOutput, got %v", got)
	}
	if hook["hookEventName"] != "SessionStart" {
		t.Errorf("hookEventName = %v, want SessionStart", hook["hookEventName"])
	}
	if hook["additionalContext"] != text {
		t.Errorf("additionalContext differs from --format text:\n%v\nvs\n%s", hook["additionalContext"], text)
	}
	for _, want := range []string{"Use Go.", "[Testing policy](feedback_testing_policy.md)"} {
		if !strings.Contains(text, want) {
			t.Errorf("context lacks %q:\n%s", want, text)
		}
	}
}
