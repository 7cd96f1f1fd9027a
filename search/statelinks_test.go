package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestStateNeverLeavesTheMemoryDir checks a memory directory a clone
// wrote (team memory lives in the work tree): a committed link where the
// search state goes, to a directory outside or to /dev/zero, never makes
// a search or a recall write outside or read without bound. The search
// still answers from the files.
func TestStateNeverLeavesTheMemoryDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	cases := []struct {
		name  string
		plant func(t *testing.T, mem, outside string)
	}{
		{"state dir linked out", func(t *testing.T, mem, outside string) {
			must(t, os.Symlink(outside, filepath.Join(mem, ".memdir")))
		}},
		{"search dir linked out", func(t *testing.T, mem, outside string) {
			must(t, os.MkdirAll(filepath.Join(mem, ".memdir"), 0o755))
			must(t, os.Symlink(outside, filepath.Join(mem, ".memdir", "search")))
		}},
		{"index and lock linked out", func(t *testing.T, mem, outside string) {
			dir := filepath.Join(mem, filepath.FromSlash(StateDir))
			must(t, os.MkdirAll(dir, 0o755))
			for _, f := range []string{baseFile, deltaFile, lockFile} {
				must(t, os.Symlink(filepath.Join(outside, f), filepath.Join(dir, f)))
			}
		}},
		{"recalls from /dev/zero", func(t *testing.T, mem, outside string) {
			dir := filepath.Join(mem, filepath.FromSlash(StateDir))
			must(t, os.MkdirAll(dir, 0o755))
			must(t, os.Symlink("/dev/zero", filepath.Join(dir, recallFile)))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDir(t, map[string]string{"project_deploy.md": topicFile("project", "Deploy", "How we deploy", "Canary first.")})
			outside := t.TempDir()
			must(t, os.WriteFile(filepath.Join(outside, baseFile), []byte("precious"), 0o644))
			c.plant(t, d.Path, outside)
			hits, err := Open(d).Search(context.Background(), Query{Text: "canary"})
			if err != nil || len(hits) != 1 {
				t.Fatalf("Search = %v, %v; want the deploy topic", hits, err)
			}
			_ = Open(d).Recall("project_deploy.md") // refused or counted inside, never written out
			ents, err := os.ReadDir(outside)
			if err != nil {
				t.Fatal(err)
			}
			if len(ents) != 1 {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("files outside the memory directory: %v, want only %s", names, baseFile)
			}
			if data, _ := os.ReadFile(filepath.Join(outside, baseFile)); string(data) != "precious" {
				t.Errorf("the file outside was overwritten: %.20q", data)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
