package importer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
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
