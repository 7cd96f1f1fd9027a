package memsync

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/typesx"
)

// TestSyncCarriesTopicsAndIndexesOnly: daily logs, archive/, .memdir/,
// hidden files and files that are not markdown stay on the machine; and
// a remote that holds such paths in a project's folder (someone pushed
// them by hand) never writes them into a memory directory.
func TestSyncCarriesTopicsAndIndexesOnly(t *testing.T) {
	bare := bareRemote(t)
	a, b := newMachine(t, "file://"+bare), newMachine(t, "file://"+bare)
	topic := a.add(t, typesx.Reference, "Dashboards", "Grafana dashboards live at grafana.internal.", false)
	stay := map[string]string{
		"logs/2026/11/2026-11-22.md":  "# 2026-11-22\n\n- 10:04 a log entry\n",
		"archive/project_old_news.md": "---\nname: Old news\ndescription: Old\ntype: project\n---\n\nOld.\n",
		".memdir/notes.md":            "state\n",
		".draft.md":                   "a hidden draft\n",
		"notes.txt":                   "not markdown\n",
	}
	for rel, text := range stay {
		path := filepath.Join(a.mem, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a.sync(t)
	pushed := strings.Fields(run(t, bare, "git", "ls-tree", "-r", "--name-only", "main"))
	folder := ProjectFolder("github.com/acme/app")
	want := []string{folder + "/MEMORY.md", folder + "/" + topic}
	if !slices.Equal(pushed, want) {
		t.Errorf("the remote holds %q, want %q", pushed, want)
	}

	// Someone pushes a log and an archived topic into the folder by hand.
	clone := filepath.Join(t.TempDir(), "clone")
	run(t, "", "git", "clone", "-q", "file://"+bare, clone)
	for _, rel := range []string{"logs/2026/11/2026-11-23.md", "archive/project_planted.md"} {
		path := filepath.Join(clone, folder, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("planted\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, clone, "git", "add", "-A")
	run(t, clone, "git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "planted")
	run(t, clone, "git", "push", "-q", "origin", "HEAD:main")
	b.sync(t)
	b.read(t, topic)
	for _, rel := range []string{"logs", "archive"} {
		if _, err := os.Stat(filepath.Join(b.mem, rel)); err == nil {
			t.Errorf("the sync wrote %s into the memory directory", rel)
		}
	}
}
