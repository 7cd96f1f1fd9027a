package agentsetup

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/untrusted"
)

// Amp (npm @sourcegraph/amp, read in release 0.0.1790142911-g7618fb):
// plugins are TypeScript files in .amp/plugins/ (the project's) and
// $XDG_CONFIG_HOME/amp/plugins/ (the person's), run by Bun as long-lived
// processes, on by default. MCP servers are "amp.mcpServers" in
// .amp/settings.json or $XDG_CONFIG_HOME/amp/settings.json (every key has
// the "amp." prefix); a workspace server runs only once approved (`amp mcp
// approve memdir`), which Amp records as "amp.mcpTrustedServers" in the
// user's settings with the sha256 of the server's spec.

//go:embed assets/memdir-amp.ts
var ampPlugin []byte

// ampMarker is the first line of every plugin file setup writes: a file
// that starts with it is setup's to rewrite and to remove.
const ampMarker = "// memdir-amp-plugin:"

// ampProgramLine is the plugin's line naming the memdir it runs.
const ampProgramLine = `const MEMDIR = "memdir"`

// AmpPlugin is the plugin setup writes for the memdir executable program.
func AmpPlugin(program string) []byte {
	q, _ := json.Marshal(program)
	return bytes.Replace(ampPlugin, []byte(ampProgramLine), []byte("const MEMDIR = "+string(q)), 1)
}

// AmpPluginProgram reports the memdir executable a plugin file runs, and
// whether the file is one setup wrote at all.
func AmpPluginProgram(src []byte) (string, bool) {
	if !bytes.HasPrefix(src, []byte(ampMarker)) {
		return "", false
	}
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "const MEMDIR = "); ok {
			var p string
			if json.Unmarshal([]byte(rest), &p) == nil {
				return p, true
			}
		}
	}
	return "", true
}

// AmpConfigDir is Amp's configuration directory: $XDG_CONFIG_HOME/amp,
// else ~/.config/amp.
func AmpConfigDir(home string, getenv func(string) string) string {
	if getenv != nil {
		if x := getenv("XDG_CONFIG_HOME"); x != "" {
			return filepath.Join(x, "amp")
		}
	}
	return filepath.Join(home, ".config", "amp")
}

// AmpPaths are the plugin and settings files setup writes for a project
// (root) or, with user, for the person.
func AmpPaths(root, configDir string, user bool) (plugin, settings string) {
	if user {
		return filepath.Join(configDir, "plugins", "memdir.ts"), filepath.Join(configDir, "settings.json")
	}
	return filepath.Join(root, ".amp", "plugins", "memdir.ts"), filepath.Join(root, ".amp", "settings.json")
}

// ampTargets: the plugin, then the MCP server, then (taken out only) the
// note an earlier release of setup put in the instruction file when Amp
// was believed to have no hooks. The plugin comes first so that an undo
// empties .amp/plugins/ before .amp/ is pruned.
func ampTargets(o Options, ampDir string) ([]target, error) {
	plugin, settings := AmpPaths(o.Root, ampDir, o.User)
	ts := []target{
		{path: plugin, format: "file", block: string(AmpPlugin(o.Program))},
		{path: settings, format: "json", server: stdioServer(o, false), serverPath: []string{"amp.mcpServers", "memdir"}},
	}
	if data, err := untrusted.ReadFile(o.InstructionFile, "", untrusted.MaxInstruction); err == nil && bytes.Contains(data, []byte(mdFence.begin)) {
		ts = append(ts, target{path: o.InstructionFile, format: "md", fence: mdFence, block: ampNote, remove: true})
	}
	return ts, nil
}

var mdFence = fence{begin: "<!-- >>> memdir setup", end: "<!-- <<< memdir setup"}

// ampNote is the note earlier releases of setup wrote; setup takes it out.
const ampNote = "<!-- >>> memdir setup: managed block; `memdir setup amp --undo` removes it -->\n"

// editFile puts a whole file of setup's own in place, or takes it out. A
// file by that name that setup did not write belongs to the person: it
// stays, with a note.
func (t target) editFile(src string, o Options) (string, []string, bool, error) {
	ours := strings.HasPrefix(src, ampMarker)
	switch {
	case src != "" && !ours:
		return src, []string{fmt.Sprintf("%s exists and is not memdir's plugin; left as it is", t.path)}, false, nil
	case o.Undo:
		return "", nil, ours, nil
	}
	return t.block, nil, false, nil
}

func ampHints(user bool) []string {
	h := []string{"restart Amp (or run `amp plugins list` here): it loads the plugin at start"}
	if !user {
		h = append(h, "Amp starts no server from a workspace's .amp/settings.json until you approve it: run `amp mcp approve memdir` here (`memdir doctor amp` checks)")
	}
	return h
}
