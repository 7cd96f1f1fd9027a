package agentsetup

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodexHookHash compares CodexHookHash with the hashes Codex 0.169.0
// itself reported for setup's hooks (codex app-server, hooks/list).
func TestCodexHookHash(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "clients", "codex-0.169.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var h struct {
			Key, Command, CurrentHash string
			Matcher                   *string
			TimeoutSec                int
		}
		if !strings.HasPrefix(sc.Text(), "{") {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(h.Key, ":")
		event := ""
		for _, w := range strings.Split(parts[1], "_") {
			event += strings.ToUpper(w[:1]) + w[1:]
		}
		matcher := ""
		if h.Matcher != nil {
			matcher = *h.Matcher
		}
		if got := CodexHookHash(event, matcher, h.Command, h.TimeoutSec); got != h.CurrentHash {
			t.Errorf("%s: CodexHookHash = %s, Codex says %s", h.Key, got, h.CurrentHash)
		}
		n++
	}
	if n != 4 {
		t.Fatalf("%d hooks in the golden file, want 4", n)
	}
}

func TestCodexHooksReview(t *testing.T) {
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "app")
	o := options("codex", false, home, root)
	o.Program = "memdir"
	applyAll(t, o, filepath.Join(base, "backups"))
	hooks, err := CodexHooks(o)
	if err != nil || len(hooks) != 5 {
		t.Fatalf("CodexHooks = %v, %v; want 5 hooks", hooks, err)
	}
	// The person trusts three of them in /hooks; the others stay unreviewed.
	var b strings.Builder
	b.WriteString("model = \"x\"\n\n[projects.\"" + root + "\"]\ntrust_level = \"trusted\"\n")
	for _, h := range hooks[:3] {
		b.WriteString("\n[hooks.state.\"" + h.Key + "\"]\ntrusted_hash = \"" + h.Hash + "\"\n")
	}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	hooks, err = CodexHooks(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hooks {
		if h.Reviewed() != (i < 3) {
			t.Errorf("%s: reviewed %v, want %v", h.Key, h.Reviewed(), i < 3)
		}
		if !strings.HasPrefix(h.Key, filepath.Join(root, ".codex", "hooks.json")+":") {
			t.Errorf("key %s", h.Key)
		}
	}
	if ok, err := CodexProjectTrusted(o, root); !ok || err != nil {
		t.Errorf("CodexProjectTrusted = %v, %v", ok, err)
	}
	if ok, _ := CodexProjectTrusted(o, root+"x"); ok {
		t.Error("another project counts as trusted")
	}
}
