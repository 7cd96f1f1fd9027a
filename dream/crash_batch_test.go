//go:build crashtest

package dream

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCrashBeforeTheJournalGoes kills a dream (SIGKILL, through the
// crash hook) in the window the batched topic writes open: with every
// topic written and none synced, and with the topics synced but the
// index, report and state not written. The killed dream must have left
// its journal and no state, and the next dream must replay it to exactly
// an uninterrupted dream's files. The torn cases cut written topics
// short, down to empty, as a power cut before the sync may leave them
// (a power cut itself cannot be staged here): the replay finishes those
// too.
func TestCrashBeforeTheJournalGoes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	base, fixture, texts, want := crashReference(t)
	cases := []struct {
		point string
		tear  bool
	}{
		{crashWritten, false},
		{crashWritten, true},
		{crashSynced, false},
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%s-torn=%v", tc.point, tc.tear)
		dir := filepath.Join(base, name)
		copyDir(t, fixture, dir)
		cmd := helper(dir, 0)
		cmd.Env = append(cmd.Env, CrashAtEnv+"="+tc.point)
		if err := cmd.Run(); !killed(err) {
			t.Fatalf("%s: the dream ended with %v, want SIGKILL", name, err)
		}
		j, err := readJournal(dir)
		if err != nil || j == nil {
			t.Fatalf("%s: the killed dream left no journal (%v)", name, err)
		}
		if len(j.Writes) < 2 {
			t.Fatalf("%s: the journal writes %d topics, want the fixture's 4", name, len(j.Writes))
		}
		if _, err := os.Stat(filepath.Join(dir, statePath)); !os.IsNotExist(err) {
			t.Fatalf("%s: the killed dream recorded a state (%v) before its topics were done", name, err)
		}
		for _, op := range j.Writes {
			got, err := os.ReadFile(filepath.Join(dir, op.Path))
			if err != nil || string(got) != op.Data {
				t.Fatalf("%s: %s does not hold what the journal wrote (%v)", name, op.Path, err)
			}
		}
		if tc.tear {
			tear(t, dir, j)
		}
		finishAndCompare(t, dir, want, texts, name)
	}
}

// tear cuts the journal's first new topic to nothing and its second to
// half its bytes.
func tear(t *testing.T, dir string, j *journal) {
	t.Helper()
	n := 0
	for _, op := range j.Writes {
		if op.Before != absent {
			continue
		}
		if err := os.Truncate(filepath.Join(dir, op.Path), int64(n*len(op.Data)/2)); err != nil {
			t.Fatal(err)
		}
		if n++; n == 2 {
			return
		}
	}
	t.Fatal("the journal creates fewer than two topics")
}
