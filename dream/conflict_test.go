package dream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// TestConflictCopyIsNeverATopic: a sync's conflict copy
// (<stem>.conflict-<7 hex>.md) holds the other side of a topic, for a
// person to merge. A dream never merges an entry into it, even one that
// restates its fact under its name, never indexes it, and drops a line a
// sync left for it in MEMORY.md.
func TestConflictCopyIsNeverATopic(t *testing.T) {
	d := newLogDir(t)
	topic := "---\nname: Deploy windows\ndescription: Deploy windows\ntype: project\n---\n\nDeploy windows are 10:00 to 16:00.\n"
	copyName := "project_deploy_windows.conflict-0a1b2c3.md"
	copyText := "---\nname: Staging deploys\ndescription: Staging deploys need the VPN\ntype: project\n---\n\nStaging deploys need the VPN turned on.\n"
	for file, data := range map[string]string{"project_deploy_windows.md": topic, copyName: copyText} {
		if err := os.WriteFile(filepath.Join(d.Path, file), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := memdir.ConflictCopy(copyName); !ok {
		t.Fatalf("%s is not a conflict copy to memdir.ConflictCopy", copyName)
	}
	index := "- [Deploy windows](project_deploy_windows.md) — Deploy windows\n- [Staging deploys](" + copyName + ") — Staging deploys need the VPN\n"
	if err := os.WriteFile(filepath.Join(d.Path, memdir.IndexFile), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	// The copy's name, and a restatement of its fact.
	appendEntry(t, d, day1, typesx.Project, "Staging deploys", "Staging deploys need the VPN turned on, and a hardware key.")
	rep := dreamOnce(t, d, Options{})
	if got := readFile(t, d, copyName); got != copyText {
		t.Errorf("the conflict copy was changed:\n%s", got)
	}
	for _, f := range append(append([]string(nil), rep.Created...), rep.Updated...) {
		if f == copyName {
			t.Errorf("the dream wrote the conflict copy (report: created %v, updated %v)", rep.Created, rep.Updated)
		}
	}
	if len(rep.Created) != 1 {
		t.Fatalf("created %v, want one new topic for the entry", rep.Created)
	}
	if got := readFile(t, d, rep.Created[0]); !strings.Contains(got, "a hardware key") {
		t.Errorf("%s lacks the entry:\n%s", rep.Created[0], got)
	}
	idx := readFile(t, d, memdir.IndexFile)
	if strings.Contains(idx, copyName) {
		t.Errorf("MEMORY.md lists the conflict copy:\n%s", idx)
	}
	if !strings.Contains(idx, "(project_deploy_windows.md)") || !strings.Contains(idx, "("+rep.Created[0]+")") {
		t.Errorf("MEMORY.md lacks a topic:\n%s", idx)
	}
}
