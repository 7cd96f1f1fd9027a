package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPTeam drives a real `memdir mcp` through team memory: memory_add
// with team writes under the project's .memdir/team and says so; search
// finds team and personal memories side by side, the team's marked;
// show and list reach it; team with private is refused, and forget with
// team removes the team's file.
func TestMCPTeam(t *testing.T) {
	e := newMCPEnv(t)
	if out, err := exec.Command("git", "init", "-q", e.proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	ctx := testCtx(t)
	cs := e.connect(ctx, nil, nil, "")

	type scoped struct {
		Action, File, Scope string
	}
	add := callOK[scoped](t, ctx, cs, "memory_add", map[string]any{
		"type": "project", "name": "Release train", "text": "Releases ship every Tuesday from main.", "team": true,
	})
	teamFile := filepath.Join(e.proj, ".memdir", "team", "project_release_train.md")
	if add.Action != "created" || add.Scope != "team" || add.File != "project_release_train.md" {
		t.Fatalf("team add = %+v, want created in team scope", add)
	}
	if data, err := os.ReadFile(teamFile); err != nil || !strings.Contains(string(data), "every Tuesday") {
		t.Fatalf("team topic %s: %v %q", teamFile, err, data)
	}
	if own := callOK[scoped](t, ctx, cs, "memory_add", map[string]any{
		"type": "user", "name": "Editor", "text": "Uses vim for Tuesday reviews.",
	}); own.Scope != "" {
		t.Fatalf("personal add = %+v, want no scope", own)
	}
	if _, err := os.Stat(filepath.Join(e.memoryDir(""), "user_editor.md")); err != nil {
		t.Fatalf("the personal memory is not in the personal directory: %v", err)
	}

	found := callOK[struct {
		Results []struct{ File, Scope string } `json:"results"`
	}](t, ctx, cs, "memory_search", map[string]any{"query": "Tuesday"})
	scopes := map[string]string{}
	for _, r := range found.Results {
		scopes[r.File] = r.Scope
	}
	if s, ok := scopes["project_release_train.md"]; !ok || s != "team" {
		t.Errorf("search Tuesday: team hit %q (found %v), want scope team", s, ok)
	}
	if s, ok := scopes["user_editor.md"]; !ok || s != "" {
		t.Errorf("search Tuesday: personal hit %q (found %v), want no scope", s, ok)
	}

	if show := callOK[scoped](t, ctx, cs, "memory_show", map[string]any{"name_or_file": "Release train"}); show.Scope != "team" || show.File != "project_release_train.md" {
		t.Errorf("show = %+v, want the team topic", show)
	}
	msg := callErr(t, ctx, cs, "memory_add", map[string]any{
		"type": "project", "name": "Bands", "text": "Confidential.", "team": true, "private": true,
	})
	if !strings.Contains(msg, "private") {
		t.Errorf("team with private: %q, want a refusal naming private", msg)
	}
	callOK[struct{ Removed string }](t, ctx, cs, "memory_forget", map[string]any{"name_or_file": "Release train", "team": true})
	if _, err := os.Stat(teamFile); !os.IsNotExist(err) {
		t.Errorf("after forget with team, %s: %v; want it gone", teamFile, err)
	}
}
