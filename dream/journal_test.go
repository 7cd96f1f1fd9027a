package dream

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/atomicfile"
)

// TestEncodeJournal: the journal encoded writes first reads back as the
// journal json.Marshal encodes, whatever its writes hold.
func TestEncodeJournal(t *testing.T) {
	g := &guard{Exists: true, Size: 3, Mtime: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC), Sum: "ab"}
	full := journal{
		Version: 1, Message: "dream: <2> topics & \"more\"",
		Writes: []fileOp{
			{Path: "project_a.md", Data: "---\nname: A\n---\n\nUses <b> & \"quotes\", tabs\t and é.\n", Before: absent, Guard: guardOf(atomicfile.Stamp{})},
			{Path: "project_b.md", Data: "\u2028line\\sep\n", Before: "cd", Guard: g},
		},
		Moves:        []moveOp{{From: "project_c.md", To: "archive/project_c.md"}},
		Removes:      []string{"MEMORY-project.md"},
		RemoveGuards: map[string]*guard{"MEMORY-project.md": g},
		Last:         []fileOp{{Path: "MEMORY.md", Data: "# Memory\n"}},
		Paths:        []string{"project_a.md", "project_b.md"},
	}
	noWrites := full
	noWrites.Writes = nil
	for _, tc := range []struct {
		name string
		j    journal
	}{{"writes and the rest", full}, {"no writes", noWrites}, {"empty", journal{Version: 1}}} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := encodeJournal(&tc.j)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(&tc.j)
			if err != nil {
				t.Fatal(err)
			}
			var got, wantJ journal
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatalf("%v in %s", err, data)
			}
			if err := json.Unmarshal(want, &wantJ); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantJ, got); diff != "" {
				t.Errorf("read back (-json.Marshal +encodeJournal):\n%s", diff)
			}
		})
	}
}
