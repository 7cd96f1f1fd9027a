package memdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/typesx"
)

// TestRepairReport: the first lock taken after a holder was killed
// repairs what it left and hands the repair to the report the directory
// was opened with, once, before the call goes on; a clean lock reports
// nothing.
func TestRepairReport(t *testing.T) {
	const temp = ".memdir-tmp-MEMORY.md-999999-1"
	tests := []struct {
		name      string
		note      string // the lock file's content: a killed holder's note, or none
		wantTemps []string
		wantAdded []string // index lines given back
	}{
		{name: "killed add", note: "pid 999999 (memdir add, since 10:00:00)\n",
			wantTemps: []string{temp}, wantAdded: []string{"project_orphan.md"}},
		{name: "killed dream leaves its journal to the next dream", note: "pid 999999 (memdir dream, since 10:00:00)\n",
			wantTemps: []string{temp}},
		{name: "clean release"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []*Recovery
			d := Open(t.TempDir(), Live, WithRepairReport(func(r *Recovery) { got = append(got, r) }))
			if _, err := d.Init(); err != nil {
				t.Fatal(err)
			}
			reconWrite(t, d, "project_orphan.md", topicText("Orphan", "Written, never indexed", "project"))
			reconWrite(t, d, temp, "half of MEMORY.md")
			old := time.Now().Add(-2 * TempMaxAge)
			if err := os.Chtimes(filepath.Join(d.Path, temp), old, old); err != nil {
				t.Fatal(err)
			}
			reconWrite(t, d, filepath.Join(StateDir, "lock"), tc.note)
			if _, err := d.Add(AddRequest{Type: typesx.User, Name: "Role", Text: "Go engineer."}); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Add(AddRequest{Type: typesx.User, Name: "Shell", Text: "Uses fish."}); err != nil {
				t.Fatal(err)
			}
			if tc.note == "" {
				if len(got) != 0 {
					t.Fatalf("a clean lock reported %d repairs: %+v", len(got), got[0])
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d repairs reported over two adds, want 1", len(got))
			}
			rec := got[0]
			if want := strings.TrimSpace(tc.note); rec.Holder != want {
				t.Errorf("holder %q, want %q", rec.Holder, want)
			}
			if !cmp.Equal(rec.Temps, tc.wantTemps) {
				t.Errorf("temps removed %q, want %q", rec.Temps, tc.wantTemps)
			}
			if !cmp.Equal(rec.Reindex.Added, tc.wantAdded) {
				t.Errorf("index lines given back %q, want %q", rec.Reindex.Added, tc.wantAdded)
			}
			if _, err := os.Lstat(filepath.Join(d.Path, temp)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the temp file is still there (%v)", err)
			}
			listed := strings.Contains(reconRead(t, d, IndexFile), "(project_orphan.md)")
			if want := len(tc.wantAdded) > 0; listed != want {
				t.Errorf("orphan listed in MEMORY.md: %v, want %v", listed, want)
			}
		})
	}
}

// TestRestore: a version from history replaces the topic (a removed one
// comes back with its index line) and the committer hears where it came
// from; a version holding a credential is refused and nothing is written;
// a version equal to the file changes nothing.
func TestRestore(t *testing.T) {
	secret := "ghp_" + "1234567890abcdefghijABCDEFGHIJ123456"
	old := topicText("Freeze", "Merge freeze Thursday", "project")
	tests := []struct {
		name        string
		current     string // the file before the restore; "" for a removed topic
		version     string
		wantErr     bool
		wantChanges []Change
	}{
		{name: "removed topic", version: old,
			wantChanges: []Change{{Paths: []string{"project_freeze.md", IndexFile}, Message: "restore project_freeze.md from 3f2a9c1"}}},
		{name: "edited topic", current: topicText("Freeze", "Merge freeze Friday", "project"), version: old,
			wantChanges: []Change{{Paths: []string{"project_freeze.md", IndexFile}, Message: "restore project_freeze.md from 3f2a9c1"}}},
		{name: "credential", current: topicText("Freeze", "Merge freeze Friday", "project"),
			version: old + "Token: " + secret + "\n", wantErr: true},
		{name: "same content", current: old, version: old},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var changes []Change
			d := Open(t.TempDir(), Live, WithCommitter(CommitFunc(func(c Change) error { changes = append(changes, c); return nil })))
			if _, err := d.Init(); err != nil {
				t.Fatal(err)
			}
			if tc.current != "" {
				reconWrite(t, d, "project_freeze.md", tc.current)
				if _, err := d.Reconcile(); err != nil {
					t.Fatal(err)
				}
				changes = nil
			}
			before := reconRead(t, d, IndexFile)
			_, err := d.Restore("project_freeze.md", []byte(tc.version), "3f2a9c1")
			if tc.wantErr {
				if !IsInput(err) || !strings.Contains(err.Error(), "as at 3f2a9c1 holds what looks like a GitHub token") || strings.Contains(err.Error(), secret) {
					t.Fatalf("err = %v, want an input error naming the kind, not the secret", err)
				}
				if got := reconRead(t, d, "project_freeze.md"); got != tc.current {
					t.Errorf("the topic was rewritten:\n%s", got)
				}
				if got := reconRead(t, d, IndexFile); got != before {
					t.Errorf("MEMORY.md was rewritten:\n%s", got)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if got := reconRead(t, d, "project_freeze.md"); !strings.Contains(got, "Merge freeze Thursday") {
				t.Errorf("the topic is not the restored version:\n%s", got)
			}
			if !cmp.Equal(changes, tc.wantChanges) {
				t.Errorf("changes %+v, want %+v", changes, tc.wantChanges)
			}
		})
	}
}
