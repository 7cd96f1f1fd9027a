package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/frontmatter"
)

// The golden files under testdata/claude come from Claude Code 2.1.332
// (scripts/fidelity/memory-index): client.golden is the MEMORY.md block
// the client sent the model when run on the case's MEMORY.md;
// loader.golden is the client's loader function itself (testdata/claude/
// loader.js, cut verbatim from the client) run by node on the raw file,
// before the frontmatter is stripped and the text scrubbed.

// differs names the cases where memdir knowingly loads something else than
// the client, and why.
var differs = map[string]string{}

func TestClaudeGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "claude", "*", "MEMORY.md"))
	if err != nil || len(dirs) < 10 {
		t.Fatalf("cases: %v, %d found", err, len(dirs))
	}
	for _, path := range dirs {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data := read(t, path)
			got := Load(data, DefaultCaps).Text
			client := string(read(t, filepath.Join(dir, "client.golden")))
			if why, ok := differs[filepath.Base(dir)]; ok {
				if got == client {
					t.Errorf("memdir now loads what the client does; drop the exception (%s)", why)
				}
				return
			}
			if got != client {
				t.Errorf("Load differs from the client at byte %d:\n got %q\nwant %q", diffAt(got, client), around(got, diffAt(got, client)), around(client, diffAt(got, client)))
			}
			// The loader's own output, scrubbed as the client does, is the
			// same text when there is no frontmatter or comment to strip
			// first.
			if raw := string(data); frontmatter.StripClaude(raw) == raw && !strings.Contains(raw, "<!--") {
				loader := TrimJS(Scrub(string(read(t, filepath.Join(dir, "loader.golden")))))
				if got != loader {
					t.Errorf("Load differs from the client's loader at byte %d:\n got %q\nwant %q", diffAt(got, loader), around(got, diffAt(got, loader)), around(loader, diffAt(got, loader)))
				}
			}
		})
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func diffAt(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func around(s string, i int) string {
	lo, hi := max(i-120, 0), min(i+120, len(s))
	return s[lo:hi]
}
