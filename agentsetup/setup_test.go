package agentsetup

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memdir/memdir/settings"
)

// fixture copies testdata/agents/<from> to dir/<to>.
func fixture(t *testing.T, dir, from, to string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "agents", from))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, to)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// world is a home and a project with the agents' real-looking files.
func world(t *testing.T) (home, root string) {
	t.Helper()
	base := t.TempDir()
	home, root = filepath.Join(base, "home"), filepath.Join(base, "src", "app")
	for _, f := range [][2]string{
		{"claude/mcp.json", "src/app/.mcp.json"},
		{"claude/settings.json", "src/app/.claude/settings.json"},
		{"claude/claude.json", "home/.claude.json"},
		{"claude/settings.json", "home/.claude/settings.json"},
		{"codex/config.toml", "home/.codex/config.toml"},
		{"codex/config.toml", "src/app/.codex/config.toml"},
		{"gemini/settings.json", "src/app/.gemini/settings.json"},
		{"gemini/settings.json", "home/.gemini/settings.json"},
		{"amp/settings.json", "src/app/.amp/settings.json"},
		{"amp/AGENTS.md", "src/app/AGENTS.md"},
	} {
		fixture(t, base, f[0], f[1])
	}
	return home, root
}

func options(agent string, user bool, home, root string) Options {
	return Options{Agent: agent, User: user, Program: "/opt/memdir/bin/memdir", Home: home, Root: root,
		Getenv: func(string) string { return "" }, InstructionFile: filepath.Join(root, "AGENTS.md"),
		MemoryDir: filepath.Join(home, ".memdir", "projects", "-src-app", "memory")}
}

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func applyAll(t *testing.T, o Options, backups string) []Change {
	t.Helper()
	cs, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if _, err := Apply(c, backups, "20261122T100405Z"); err != nil {
			t.Fatal(err)
		}
	}
	return cs
}

func TestSetupRoundTrip(t *testing.T) {
	for _, agent := range Agents {
		for _, user := range []bool{false, true} {
			name := agent + map[bool]string{false: "/project", true: "/user"}[user]
			t.Run(name, func(t *testing.T) {
				home, root := world(t)
				base := filepath.Dir(home)
				backups := filepath.Join(t.TempDir(), "backups")
				before := snapshot(t, base)
				o := options(agent, user, home, root)
				if agent == "amp" && user {
					o.InstructionFile = filepath.Join(home, ".config", "amp", "AGENTS.md")
				}
				first := applyAll(t, o, backups)
				changed := 0
				for _, c := range first {
					if c.Changed() {
						changed++
						checkParses(t, c)
						if c.Old != nil && !strings.Contains(string(c.New), "memdir") {
							t.Errorf("%s: no memdir in the new file", c.Path)
						}
					}
				}
				if changed == 0 {
					t.Fatal("setup changed nothing")
				}
				wired := snapshot(t, base)
				again := applyAll(t, o, backups)
				for _, c := range again {
					if c.Changed() {
						t.Errorf("second run changes %s:\n%s", c.Path, c.New)
					}
				}
				if got := snapshot(t, base); !equalMaps(got, wired) {
					t.Error("a second run rewrote files")
				}
				o.Undo = true
				applyAll(t, o, backups)
				after := snapshot(t, base)
				for p, want := range before {
					if after[p] != want {
						t.Errorf("undo did not restore %s:\n%s\nwant:\n%s", p, after[p], want)
					}
				}
				for p := range after {
					if _, ok := before[p]; !ok {
						t.Errorf("undo left %s behind", p)
					}
				}
			})
		}
	}
}

// TestSetupClaudeFreshProject: a project with no .claude/ gets one, and
// the undo takes it away again; a project's settings hold the permission
// rules and the local file points Claude's auto memory at memdir's.
func TestSetupClaudeFreshProject(t *testing.T) {
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "app")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	o := options("claude", false, home, root)
	applyAll(t, o, filepath.Join(base, "backups"))
	local, err := os.ReadFile(filepath.Join(root, ".claude", "settings.local.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Dir     string   `json:"autoMemoryDirectory"`
		Enabled []string `json:"enabledMcpjsonServers"`
	}
	if err := json.Unmarshal(local, &got); err != nil || got.Dir != o.MemoryDir || len(got.Enabled) != 1 || got.Enabled[0] != "memdir" {
		t.Errorf("settings.local.json = %s (%v)", local, err)
	}
	settings, _ := os.ReadFile(filepath.Join(root, ".claude", "settings.json"))
	if !strings.Contains(string(settings), `"mcp__memdir__memory_search"`) || strings.Contains(string(settings), "memory_forget") {
		t.Errorf("settings.json permissions:\n%s", settings)
	}
	o.Undo = true
	applyAll(t, o, filepath.Join(base, "backups"))
	if left, _ := os.ReadDir(root); len(left) != 0 {
		t.Errorf("undo left %v in the project", left)
	}
}

// TestHookUpgrades: a hook an earlier setup wrote (the old session-start
// command, Codex's old SessionEnd timeout) is setup's own and is updated.
func TestHookUpgrades(t *testing.T) {
	for _, tc := range []struct {
		name, agent, file, src, want, gone string
		moved                              string // the file the hooks live in now, if not file
	}{
		{"claude legacy context", "claude", ".claude/settings.json",
			`{"hooks": {"SessionStart": [{"matcher": "startup|clear|compact", "hooks": [{"type": "command", "command": "memdir context --agent claude --no-instructions --format claude-hook", "timeout": 30}]}]}}`,
			"--no-memory", "--no-instructions --format", ".claude/settings.local.json"},
		{"codex SessionEnd timeout", "codex", ".codex/hooks.json",
			`{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "memdir capture", "timeout": 30}]}]}}`,
			`"timeout": 3}]}], "SessionStart"`, `"timeout": 30}]}], "SessionStart"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			home, root := filepath.Join(base, "home"), filepath.Join(base, "app")
			path := filepath.Join(root, tc.file)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			o := options(tc.agent, false, home, root)
			o.Program = "memdir"
			applyAll(t, o, filepath.Join(base, "backups"))
			if tc.moved != "" {
				if old, _ := os.ReadFile(path); strings.Contains(string(old), "memdir c") {
					t.Errorf("%s still runs memdir:\n%s", tc.file, old)
				}
				path = filepath.Join(root, tc.moved)
			}
			got, _ := os.ReadFile(path)
			if !strings.Contains(string(got), tc.want) || strings.Contains(string(got), tc.gone) {
				t.Errorf("got\n%s\nwant %q and no %q", got, tc.want, tc.gone)
			}
			if n := strings.Count(string(got), "memdir c"); n != 4 {
				t.Errorf("%d memdir hooks, want 4:\n%s", n, got)
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkParses checks a changed JSON file with the strict parser when it
// was strict JSON before (agents that read plain JSON must still read it).
func checkParses(t *testing.T, c Change) {
	t.Helper()
	if !strings.HasSuffix(c.Path, ".json") {
		if strings.HasSuffix(c.Path, ".toml") {
			if _, err := scanTOML(c.Path, string(c.New)); err != nil {
				t.Errorf("%s no longer parses: %v", c.Path, err)
			}
		}
		return
	}
	if c.Old == nil || json.Valid(c.Old) {
		if !json.Valid(c.New) {
			t.Errorf("%s is no longer valid JSON:\n%s", c.Path, c.New)
		}
		return
	}
	if _, err := parseJSONC(c.Path, string(c.New)); err != nil {
		t.Errorf("%s no longer parses: %v", c.Path, err)
	}
}

func TestSetupRefusesMalformed(t *testing.T) {
	for _, tc := range []struct{ agent, file, text string }{
		{"claude", ".claude/settings.json", "{\n  \"permissions\": {\n    \"allow\": [\"Bash\"\n  }\n}\n"},
		{"claude", ".mcp.json", "[1, 2]\n"},
		{"codex", ".codex/config.toml", "model = gpt-5\n"},
		{"codex", ".codex/config.toml", "[mcp_servers.x\ncommand = \"x\"\n"},
		{"gemini", ".gemini/settings.json", "{ \"ui\": { \"theme\": \"x\" } /* never closed\n"},
		{"amp", ".amp/settings.json", "{\"amp.mcpServers\": 3}\n"},
	} {
		t.Run(tc.agent+"/"+tc.file, func(t *testing.T) {
			home, root := world(t)
			path := filepath.Join(root, tc.file)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, filepath.Dir(home))
			_, err := Plan(options(tc.agent, false, home, root))
			var ue interface{ UserError() }
			if err == nil || !errors.As(err, &ue) {
				t.Fatalf("Plan = %v, want an error the person must fix", err)
			}
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q: want one line naming the file", err)
			}
			if !equalMaps(before, snapshot(t, filepath.Dir(home))) {
				t.Error("a refused plan wrote something")
			}
		})
	}
}

// TestClaudeMemoryDirMoves: when memdir's directory for the project moves,
// setup points Claude at the new one (the old value names a memdir
// directory, so it was setup's); a folder of the person's own is replaced
// too (it stands in the way of one memory) and undo puts it back.
func TestClaudeMemoryDirMoves(t *testing.T) {
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "app")
	old, own := filepath.Join(base, "old", "memory"), filepath.Join(base, "own")
	for _, d := range []string{filepath.Join(old, ".memdir"), own} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, was string
		moved     bool
	}{{"memdir's old directory", old, true}, {"the person's folder", own, false}} {
		t.Run(tc.name, func(t *testing.T) {
			local := filepath.Join(root, ".claude", "settings.local.json")
			if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
				t.Fatal(err)
			}
			src := `{"autoMemoryDirectory": ` + quote(tc.was) + `}` + "\n"
			if err := os.WriteFile(local, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			o := options("claude", false, home, root)
			o.BackupDir = filepath.Join(base, "backups", tc.name)
			applyAll(t, o, o.BackupDir)
			got, _ := os.ReadFile(local)
			if !strings.Contains(string(got), o.MemoryDir) {
				t.Errorf("settings.local.json after setup:\n%s", got)
			}
			o.Undo = true
			applyAll(t, o, o.BackupDir)
			got, _ = os.ReadFile(local)
			if tc.moved && strings.Contains(string(got), "autoMemoryDirectory") || !tc.moved && string(got) != src {
				t.Errorf("settings.local.json after undo:\n%s", got)
			}
		})
	}
}

// TestCodexEnvVars: every variable memdir reads, a setting's among them,
// reaches Codex's MCP server (MEMDIR_TEAM_DIR, MEMDIR_MODE,
// MEMDIR_LOCK_TIMEOUT were once missing: team memory then went unseen).
func TestCodexEnvVars(t *testing.T) {
	ts, err := targets(options("codex", false, "/home/u", "/src/app"))
	if err != nil {
		t.Fatal(err)
	}
	block := ts[0].block
	for _, k := range settings.Keys() {
		if k.Env != "" && !strings.Contains(block, quote(k.Env)) {
			t.Errorf("env_vars lacks %s:\n%s", k.Env, block)
		}
	}
	for _, name := range []string{"MEMDIR_HOME", "MEMDIR_DIR", "MEMDIR_TEAM_DIR", "MEMDIR_MODE", "MEMDIR_LOCK_TIMEOUT"} {
		if !strings.Contains(block, quote(name)) {
			t.Errorf("env_vars lacks %s", name)
		}
	}
}

// TestUndoWithoutFinalNewline: a file whose last line had no line break
// comes back byte for byte after setup and undo (Codex's TOML, Amp's
// markdown), and a second setup changes nothing.
func TestUndoWithoutFinalNewline(t *testing.T) {
	for _, tc := range []struct{ agent, file, src string }{
		{"codex", ".codex/config.toml", "model = \"o4\"\n[tools]\nweb_search = true"},
		{"codex", ".codex/config.toml", "model = \"o4\"\r\n[tools]\r\nweb_search = true"},
		{"amp", "AGENTS.md", "# Project\n\nUse make."},
	} {
		t.Run(tc.agent+" "+strconv.Quote(tc.src[len(tc.src)-4:]), func(t *testing.T) {
			base := t.TempDir()
			home, root := filepath.Join(base, "home"), filepath.Join(base, "app")
			path := filepath.Join(root, tc.file)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			o := options(tc.agent, false, home, root)
			applyAll(t, o, filepath.Join(base, "backups"))
			once, _ := os.ReadFile(path)
			applyAll(t, o, filepath.Join(base, "backups"))
			if twice, _ := os.ReadFile(path); string(twice) != string(once) {
				t.Errorf("a second setup changed the file:\n%q\n%q", once, twice)
			}
			o.Undo = true
			applyAll(t, o, filepath.Join(base, "backups"))
			if got, _ := os.ReadFile(path); string(got) != tc.src {
				t.Errorf("after undo %q, want %q", got, tc.src)
			}
		})
	}
}
