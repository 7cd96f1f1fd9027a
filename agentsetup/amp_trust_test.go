package agentsetup

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAmpSpecHash compares with the hashes Amp's own function (k5t in
// 0.0.1790142911-g7618fb, run under node) gives for the same specs.
func TestAmpSpecHash(t *testing.T) {
	for _, tc := range []struct{ settings, want string }{
		{`{"amp.mcpServers": {"memdir": {"command": "memdir", "args": ["mcp"]}}}`,
			"ec98c7d52832d97ff2eefe33aa4334d32901662c61447b8e8b319ec0534e764b"},
		{"{\n\t// comment\n\t\"amp.mcpServers\": {\"memdir\": {\"env\": {\"B\": \"x\", \"A\": \"y\\n\"}, \"args\": [\"mcp\", 1.0], \"command\": \"/opt/m <\u00e9>\\u2028\",},},}",
			"15290e8697af6913930d1e9e44ca9bc5f366623da07abb2bb7cada57af02b025"},
	} {
		p := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(p, []byte(tc.settings), 0o644); err != nil {
			t.Fatal(err)
		}
		s, ok, err := AmpMCPServer(p, "memdir")
		if err != nil || !ok {
			t.Fatalf("AmpMCPServer(%s) = %v, %v", tc.settings, ok, err)
		}
		if s.SpecHash != tc.want {
			t.Errorf("spec hash of %s = %s, want %s", tc.settings, s.SpecHash, tc.want)
		}
	}
}
