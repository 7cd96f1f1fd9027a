package agentsetup

import (
	"bytes"
	"testing"
)

// TestAmpPluginProgram: the program setup names is the one the plugin
// runs and the one doctor reads back, whatever characters it holds.
func TestAmpPluginProgram(t *testing.T) {
	if n := bytes.Count(ampPlugin, []byte(ampProgramLine)); n != 1 {
		t.Fatalf("assets/memdir-amp.ts holds %q %d times, want once", ampProgramLine, n)
	}
	if !bytes.HasPrefix(ampPlugin, []byte(ampMarker)) {
		t.Fatalf("assets/memdir-amp.ts does not start with %q", ampMarker)
	}
	for _, prog := range []string{"memdir", "/opt/mem dir/memdir", `C:\Tools\memdir.exe`, `/x/"quoted"/memdir`, "/x/<tag>&/memdir"} {
		src := AmpPlugin(prog)
		got, ours := AmpPluginProgram(src)
		if !ours || got != prog {
			t.Errorf("AmpPluginProgram(AmpPlugin(%q)) = %q, %v", prog, got, ours)
		}
	}
	if _, ours := AmpPluginProgram([]byte("export default function () {}\n")); ours {
		t.Error("a plugin setup did not write counts as setup's")
	}
}
