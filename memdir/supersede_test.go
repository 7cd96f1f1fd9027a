package memdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/typesx"
)

// TestAddReplacesWhatTheNewFactSupersedes: with a Supersede rule, an add
// to an existing topic replaces the paragraph the rule names, and the
// description (so the index line) follows when it summed that paragraph
// up; without one, the fact is appended and the description kept.
func TestAddReplacesWhatTheNewFactSupersedes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rule      Supersede
		wantBody  []string
		notInBody string
		wantDesc  string
	}{
		{
			name:      "superseded",
			rule:      func(_ string, paras []string, _ string) int { return len(paras) - 1 },
			wantBody:  []string{"Freeze moved to 2026-12-10."},
			notInBody: "Thursday",
			wantDesc:  "Freeze moved to 2026-12-10.",
		},
		{
			name:     "no rule",
			wantBody: []string{"Merge freeze starts Thursday 2026-11-26.", "Freeze moved to 2026-12-10."},
			wantDesc: "Merge freeze starts Thursday 2026-11-26.",
		},
		{
			name:     "rule says none",
			rule:     func(string, []string, string) int { return -1 },
			wantBody: []string{"Merge freeze starts Thursday 2026-11-26.", "Freeze moved to 2026-12-10."},
			wantDesc: "Merge freeze starts Thursday 2026-11-26.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newTestDir(t)
			d = d.With(WithSupersede(tc.rule))
			add := func(text string) AddResult {
				t.Helper()
				res, err := d.Add(AddRequest{Type: typesx.Project, Name: "Release freeze", Text: text})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			add("Merge freeze starts next Thursday.")
			if res := add("Freeze moved to 2026-12-10."); res.Action != Updated {
				t.Fatalf("second add: got %s, want updated", res.Action)
			}
			top, err := d.Read("project_release_freeze.md")
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.wantBody {
				if !strings.Contains(top.Body, w) {
					t.Errorf("body %q lacks %q", top.Body, w)
				}
			}
			if tc.notInBody != "" && strings.Contains(top.Body, tc.notInBody) {
				t.Errorf("body %q still says %q", top.Body, tc.notInBody)
			}
			if top.Description != tc.wantDesc {
				t.Errorf("description: got %q, want %q", top.Description, tc.wantDesc)
			}
			ix, err := os.ReadFile(filepath.Join(d.Path, IndexFile))
			if err != nil {
				t.Fatal(err)
			}
			if want := "— " + tc.wantDesc; !strings.Contains(string(ix), want) {
				t.Errorf("MEMORY.md %q lacks %q", ix, want)
			}
		})
	}
}

// TestAddExpires: --expires is validated, stored, and set on an update.
func TestAddExpires(t *testing.T) {
	d := newTestDir(t)
	if _, err := d.Add(AddRequest{Type: typesx.Project, Name: "Outage", Text: "Staging is down.", Expires: "2026-13-01"}); !IsInput(err) {
		t.Fatalf("bad date: got %v, want an input error", err)
	}
	if _, err := d.Add(AddRequest{Type: typesx.Project, Name: "Outage", Text: "Staging is down.", Expires: "2026-12-01"}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Add(AddRequest{Type: typesx.Project, Name: "Outage", Text: "It stays down longer.", Expires: "2026-12-08"}); err != nil {
		t.Fatal(err)
	}
	top, err := d.Read("project_outage.md")
	if err != nil {
		t.Fatal(err)
	}
	if top.Expires != "2026-12-08" {
		t.Errorf("expires: got %q, want 2026-12-08", top.Expires)
	}
}
