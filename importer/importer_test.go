package importer

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

func TestGeminiFacts(t *testing.T) {
	got, ok := GeminiFacts("# Notes\n\n## Gemini Added Memories\n- I prefer tabs\n- Deploys need\n  the VPN\n\n## Other\n- not a memory\n")
	want := []Fact{{Line: 4, Text: "I prefer tabs"}, {Line: 5, Text: "Deploys need\nthe VPN"}}
	if !ok || !cmp.Equal(got, want) {
		t.Errorf("GeminiFacts = %v, %v; want %v", got, ok, want)
	}
}

func TestNameOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"The dashboard is at https://grafana.example.com/d/x", "The dashboard is at grafana.example.com d x"},
		{"- - -", "Imported memory"},
		{"Use pnpm.\nmore", "Use pnpm"},
	} {
		if got := nameOf(tc.in); got != tc.want {
			t.Errorf("nameOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestClaudeMemWithoutSQLite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "claude-mem.db")
	if err := os.WriteFile(db, []byte("SQLite format 3\x00"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	_, _, err := Read(ClaudeMem, db)
	if !IsInput(err) {
		t.Fatalf("Read without sqlite3 = %v, want an input error", err)
	}
}

func TestMCPMemoryRelations(t *testing.T) {
	p := filepath.Join(t.TempDir(), "memory.jsonl")
	data := `{"type":"entity","name":"A_B","entityType":"person","observations":["x"]}
{"type":"entity","name":"C","entityType":"org","observations":[]}
{"type":"relation","from":"C","to":"A_B","relationType":"employs"}
`
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	mems, skips, err := Read(MCPMemory, p)
	if err != nil {
		t.Fatal(err)
	}
	// C has only a relation: it goes into C's topic, as C's own.
	if len(mems) != 2 || len(skips) != 0 {
		t.Fatalf("got %d memories, %v skips", len(mems), skips)
	}
	if want := "- x\n"; mems[0].Text != want || mems[0].Name != "A B" || mems[0].Tags[0] != "person" {
		t.Errorf("first = %+v", mems[0])
	}
	if want := "\nRelations:\n- employs A B\n"; mems[1].Text != want {
		t.Errorf("second text = %q, want %q", mems[1].Text, want)
	}
}

// TestImportProgress checks that an import of N memories reports each
// one once, in order, whatever becomes of it: added, copied, an index
// note, or skipped as invalid.
func TestImportProgress(t *testing.T) {
	for _, dry := range []bool{false, true} {
		t.Run(map[bool]string{false: "write", true: "dry-run"}[dry], func(t *testing.T) {
			d := memdir.Open(filepath.Join(t.TempDir(), "mem"), memdir.Live)
			raw := []byte("---\nname: Copied\ndescription: copied byte for byte\ntype: user\n---\n\nI like tea.\n")
			mems := []Memory{
				{Source: "a", Type: "project", Name: "Deploy host", Text: "The deploy host is alpha."},
				{Source: "b", File: "user_copied.md", Raw: raw},
				{Source: "c", File: index.IndexName, Text: "A note written straight into the index"},
				{Source: "d", Type: "project", Name: "", Text: ""}, // invalid: skipped
				{Source: "e", Name: "Testing policy", Text: "Integration tests hit a real database."},
			}
			var got [][2]int
			_, err := Import(d, Claude, "src", mems, nil, Options{DryRun: dry, Now: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC),
				Progress: func(done, total int) { got = append(got, [2]int{done, total}) }})
			if err != nil {
				t.Fatal(err)
			}
			want := [][2]int{{1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("progress calls (-want +got):\n%s", diff)
			}
		})
	}
}
