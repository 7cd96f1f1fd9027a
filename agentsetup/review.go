package agentsetup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/untrusted"
)

// CodexHook is one of setup's hooks as Codex reviews it: Codex runs a
// hook only when the person has trusted it, which records the hook's hash
// under [hooks.state."<key>"] trusted_hash in the user's config.toml.
type CodexHook struct {
	Key     string `json:"key"`   // <hooks.json path>:<event>:<group>:<handler>
	Event   string `json:"event"` // SessionStart, ...
	Command string `json:"command"`
	Hash    string `json:"hash"` // what Codex computes for the hook now
	Trusted string `json:"trusted,omitempty"`
}

// Reviewed reports whether the person trusted the hook as it is now.
func (h CodexHook) Reviewed() bool { return h.Trusted == h.Hash }

// CodexHooks lists setup's hooks in the hooks.json of o's scope with the
// hash Codex 0.169.0 gives each and the one the person trusted, read from
// $CODEX_HOME/config.toml. A missing file lists nothing.
func CodexHooks(o Options) ([]CodexHook, error) {
	o.Agent = "codex"
	ts, err := targets(o)
	if err != nil {
		return nil, err
	}
	t := ts[1]
	data, err := untrusted.ReadFile(t.path, "", untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	d, err := newJSONDoc(t.path, string(data))
	if err != nil {
		return nil, err
	}
	trusted, err := codexTrusted(filepath.Join(codexHome(o), "config.toml"))
	if err != nil {
		return nil, err
	}
	var out []CodexHook
	for _, h := range t.hooks {
		group := d.lookup("hooks", h.event)
		for _, f := range d.findHooks(h) {
			if !f.exact {
				continue
			}
			g := group.items[f.group].val
			timeout := 600 // Codex's default
			if it, _ := f.node.member("timeout"); it != nil && it.val.kind == '0' {
				if err := json.Unmarshal([]byte(d.src[it.val.start:it.val.end]), &timeout); err != nil || timeout < 1 {
					timeout = 1
				}
			}
			key := t.path + ":" + snake(h.event) + ":" + itoa(f.group) + ":" + itoa(f.hook)
			hash := CodexHookHash(h.event, strValue(g, "matcher"), strValue(f.node, "command"), timeout)
			out = append(out, CodexHook{Key: key, Event: h.event, Command: strValue(f.node, "command"), Hash: hash, Trusted: trusted[key]})
		}
	}
	return out, nil
}

// CodexHookHash is the hash Codex gives a command hook (codex-rs hooks
// discovery, command_hook_hash; config fingerprint, version_for_toml): the
// SHA-256 of the hook's normalized identity as JSON with sorted keys and no
// white space. Checked against `codex app-server`'s hooks/list
// (agentsetup/testdata/clients/codex-0.169.0.txt).
func CodexHookHash(event, matcher, command string, timeout int) string {
	type hook struct {
		Async   bool   `json:"async"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
		Type    string `json:"type"`
	}
	id := struct {
		Event   string `json:"event_name"`
		Hooks   []hook `json:"hooks"`
		Matcher string `json:"matcher,omitempty"`
	}{snake(event), []hook{{false, command, timeout, "command"}}, matcher}
	// Fields in sorted order, as Codex sorts them; no HTML escaping, as
	// serde_json does none.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(id)
	sum := sha256.Sum256([]byte(strings.TrimSuffix(b.String(), "\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// snake is Codex's key label of an event: SessionStart -> session_start.
func snake(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func codexHome(o Options) string {
	if o.Getenv != nil && o.Getenv("CODEX_HOME") != "" {
		return o.Getenv("CODEX_HOME")
	}
	return filepath.Join(o.Home, ".codex")
}

var tomlString = lazyre.New(`=\s*"((?:[^"\\]|\\.)*)"`)

// codexValues reads the string values of Codex's user config.toml whose
// key path starts with prefix and has one more element, then name: for
// prefix [hooks state] and name trusted_hash, the trusted hash by hook key.
func codexValues(path string, prefix []string, name string) (map[string]string, error) {
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sc, err := scanTOML(path, string(data))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	out := map[string]string{}
	for _, k := range sc.keys {
		n := len(prefix)
		if len(k.path) != n+2 || !slices.Equal(k.path[:n], prefix) || k.path[n+1] != name || k.line > len(lines) {
			continue
		}
		if m := tomlString().FindStringSubmatch(lines[k.line-1]); m != nil {
			var v string
			if json.Unmarshal([]byte(`"`+m[1]+`"`), &v) == nil {
				out[k.path[n]] = v
			}
		}
	}
	return out, nil
}

func codexTrusted(path string) (map[string]string, error) {
	return codexValues(path, []string{"hooks", "state"}, "trusted_hash")
}

// CodexProjectTrusted reports whether the user's config.toml trusts the
// project at root ([projects."<root>"] trust_level = "trusted"), without
// which Codex reads none of the project's .codex/ files.
func CodexProjectTrusted(o Options, root string) (bool, error) {
	levels, err := codexValues(filepath.Join(codexHome(o), "config.toml"), []string{"projects"}, "trust_level")
	return levels[root] == "trusted", err
}
