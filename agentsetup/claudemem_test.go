package agentsetup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/canonical"
)

// TestResolveClaudeMemory: Claude Code 2.1.332's precedence for
// autoMemoryDirectory (policy, local, project, user; local and project
// only when trusted; "~/" expanded; a relative value means the default)
// and for turning auto memory off.
func TestResolveClaudeMemory(t *testing.T) {
	type files struct{ policy, local, project, user string }
	for _, tc := range []struct {
		name    string
		f       files
		trusted bool
		env     string
		wantDir string // "" is the default
		level   string
		enabled bool
	}{
		{"default", files{}, true, "", "", "", true},
		{"user", files{user: `{"autoMemoryDirectory": "~/notes"}`}, true, "", "HOME/notes", "user", true},
		{"project over user", files{project: `{"autoMemoryDirectory": "/pp"}`, user: `{"autoMemoryDirectory": "/uu"}`}, true, "", "/pp", "project", true},
		{"local over project", files{local: `{"autoMemoryDirectory": "/ll"}`, project: `{"autoMemoryDirectory": "/pp"}`}, true, "", "/ll", "local", true},
		{"policy over local", files{policy: `{"autoMemoryDirectory": "/mm"}`, local: `{"autoMemoryDirectory": "/ll"}`}, true, "", "/mm", "policy", true},
		{"untrusted skips local and project", files{local: `{"autoMemoryDirectory": "/ll"}`, user: `{"autoMemoryDirectory": "/uu"}`}, false, "", "/uu", "user", true},
		{"a value Claude rejects means the default, not the next level", files{local: `{"autoMemoryDirectory": "/x"}`, user: `{"autoMemoryDirectory": "/uu"}`}, true, "", "", "", true},
		{"relative falls back to the default", files{user: `{"autoMemoryDirectory": "notes"}`}, true, "", "", "", true},
		{"local false", files{local: `{"autoMemoryEnabled": false}`}, true, "", "", "", false},
		{"local true over user false", files{local: `{"autoMemoryEnabled": true}`, user: `{"autoMemoryEnabled": false}`}, true, "", "", "", true},
		{"env off", files{}, true, "1", "", "", false},
		{"env 0 forces on", files{user: `{"autoMemoryEnabled": false}`}, true, "0", "", "", true},
		{"env in a settings env block", files{user: `{"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "true"}}`}, true, "", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			home, root := filepath.Join(base, "home"), filepath.Join(base, "app")
			write := func(p, s string) {
				if s == "" {
					return
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := Options{Agent: "claude", Home: home, Root: root, TrustAssumed: tc.trusted,
				ManagedSettings: filepath.Join(base, "managed-settings.json"),
				Getenv: func(k string) string {
					if k == "CLAUDE_CODE_DISABLE_AUTO_MEMORY" {
						return tc.env
					}
					return ""
				}}
			write(o.ManagedSettings, tc.f.policy)
			write(filepath.Join(root, ".claude", "settings.local.json"), tc.f.local)
			write(filepath.Join(root, ".claude", "settings.json"), tc.f.project)
			write(filepath.Join(home, ".claude", "settings.json"), tc.f.user)
			cm := ResolveClaudeMemory(o)
			want := tc.wantDir
			if want == "" {
				want = filepath.Join(home, ".claude", "projects", canonical.Slug(root), "memory")
			} else if rest, ok := strings.CutPrefix(want, "HOME/"); ok {
				want = filepath.Join(home, rest)
			}
			if cm.Dir != want || cm.DirLevel != tc.level || cm.Enabled != tc.enabled {
				t.Errorf("got dir %s (%s), enabled %v; want %s (%s), %v", cm.Dir, cm.DirLevel, cm.Enabled, want, tc.level, tc.enabled)
			}
		})
	}
}
