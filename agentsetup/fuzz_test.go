package agentsetup

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzJSONC checks the JSON-with-comments scanner against encoding/json
// (whatever valid UTF-8 it accepts, the scanner accepts) and the editor's promises on
// every object it parses: wiring leaves a file that still parses, a
// second run changes nothing, and an undo gives back the original bytes.
func FuzzJSONC(f *testing.F) {
	for _, s := range []string{
		`{}`, "{\n  \"a\": 1\n}\n", `{"mcpServers": {"x": {"command": "y"}}}`,
		"// c\n{\n\t\"a\": [1, 2,], /* x */\n}", `{"hooks": {"SessionStart": [{"hooks": []}]}}`,
		`{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "memdir capture"}]}]}}`,
		`[1, "a", true, null, -0.5e3]`, "{\r\n  \"a\": \"\\u00e9\"\r\n}\r\n",
	} {
		f.Add(s)
	}
	o := Options{Agent: "gemini", Program: "memdir"}
	t0 := geminiTargets(o, "")[0]
	t0.hooks = t0.hooks[:2] // one with a matcher-less group is enough, and keeps 50,000 runs quick
	// Claude's settings: a value and list entries setup owns, too.
	t0.settings = []setting{{path: []string{"autoMemoryDirectory"}, value: "/m"}}
	t0.lists = []listSetting{{path: []string{"permissions", "allow"}, values: []string{"mcp__memdir__memory_search"}}}
	f.Add(`{"permissions": {"allow": ["Bash"], "deny": []}, "autoMemoryDirectory": "/m"}`)
	f.Add(`{"autoMemoryDirectory": "/elsewhere", "permissions": {"allow": []}}`)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1024 {
			return
		}
		n, err := parseJSONC("f.json", src)
		if json.Valid([]byte(src)) && utf8.ValidString(src) && err != nil {
			t.Fatalf("valid JSON refused: %q: %v", src, err)
		}
		if err != nil || n.kind != '{' || strings.Contains(src, "memdir") {
			return
		}
		wired, _, _, err := t0.editJSON(src, o)
		if err != nil {
			return // a value of the wrong kind where setup writes: refused
		}
		if _, err := parseJSONC("f.json", wired); err != nil {
			t.Fatalf("wired file does not parse: %v\n%s", err, wired)
		}
		if json.Valid([]byte(src)) && !json.Valid([]byte(wired)) {
			t.Fatalf("strict JSON became invalid:\n%s", wired)
		}
		again, _, _, err := t0.editJSON(wired, o)
		if err != nil || again != wired {
			t.Fatalf("second run changed the file (%v):\n%s\n---\n%s", err, wired, again)
		}
		undo := o
		undo.Undo = true
		back, _, _, err := t0.editJSON(wired, undo)
		if err != nil {
			t.Fatal(err)
		}
		// An empty object or list written with white space inside ("{ }")
		// comes back as "{}": the one thing an undo does not restore.
		if back != src && !emptyWithSpace.MatchString(src) && !strings.Contains(src, `"mcpServers"`) && !strings.Contains(src, `"hooks"`) &&
			!strings.Contains(src, `"permissions"`) && !strings.Contains(src, `"autoMemoryDirectory"`) {
			t.Fatalf("undo did not restore the bytes:\n%q\n%q", src, back)
		}
	})
}

var emptyWithSpace = regexp.MustCompile(`[{\[]\s+[}\]]`)

// FuzzTOML checks that the TOML scanner never panics and that setup's
// block goes in and out of any file it accepts without touching the rest.
func FuzzTOML(f *testing.F) {
	for _, s := range []string{
		"", "a = 1\n", "[t]\nk = \"v\" # c\n", "x = [\n  1,\n  2, # c\n]\n", "s = '''\nraw\n'''\n",
		"d = 1979-05-27T07:32:00Z\n", "[a.\"b c\".d]\n[[arr]]\n", "m = \"\"\"\nq\"\"\"\"\n", "t = { a = 1, b = [2] }\n",
		"[mcp_servers.other]\ncommand = \"x\"\n",
	} {
		f.Add(s)
	}
	o := Options{Agent: "codex", Program: "memdir", Root: "/p"}
	t0 := codexTargets(o, "")[0]
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1024 {
			return
		}
		if _, err := scanTOML("c.toml", src); err != nil {
			return
		}
		wired, notes, err := t0.editTOML(src, o)
		if err != nil || len(notes) > 0 {
			return
		}
		again, _, err := t0.editTOML(wired, o)
		if err != nil || again != wired {
			t.Fatalf("second run changed the file (%v):\n%s", err, again)
		}
		undo := o
		undo.Undo = true
		back, _, err := t0.editTOML(wired, undo)
		if err != nil {
			t.Fatal(err)
		}
		if (src == "" || strings.HasSuffix(src, "\n")) && back != src {
			t.Fatalf("undo did not restore the bytes:\n%q\n%q", src, back)
		}
	})
}
