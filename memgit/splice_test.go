package memgit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

// mktree has git make a tree of entries ("name" a file, "name/" a
// directory, each pointing at a made-up object) and returns its raw
// content as git wrote it.
func mktree(t *testing.T, dir string, entries []string) []byte {
	t.Helper()
	var in strings.Builder
	for _, e := range entries {
		name, isDir := strings.CutSuffix(e, "/")
		h := plumbing.ComputeHash(plumbing.BlobObject, []byte(e))
		if isDir {
			fmt.Fprintf(&in, "040000 tree %s\t%s\n", h, name)
		} else {
			fmt.Fprintf(&in, "100644 blob %s\t%s\n", h, name)
		}
	}
	cmd := gitCmd(dir, "mktree", "--missing")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git mktree: %v", err)
	}
	raw, err := gitCmd(dir, "cat-file", "tree", strings.TrimSpace(string(out))).Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	return raw
}

// TestSpliceTreeMatchesGit: a spliced tree is byte for byte the tree git
// makes of the entries it should hold.
func TestSpliceTreeMatchesGit(t *testing.T) {
	requireGit(t)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q")
	for _, tc := range []struct {
		name          string
		base, changes []string // "-name" in changes removes name
		want          []string
	}{
		{"add in the middle", []string{"a.md", "c.md"}, []string{"b.md"}, []string{"a.md", "b.md", "c.md"}},
		{"add first and last", []string{"m.md"}, []string{"A.md", "z.md"}, []string{"A.md", "m.md", "z.md"}},
		{"replace in place", []string{"a.md", "b.md", "c.md"}, []string{"b.md"}, []string{"a.md", "b.md", "c.md"}},
		{"remove", []string{"a.md", "b.md", "c.md"}, []string{"-a.md", "-c.md"}, []string{"b.md"}},
		{"remove all", []string{"a.md"}, []string{"-a.md"}, nil},
		{"into an empty tree", nil, []string{"b/", "a.md"}, []string{"a.md", "b/"}},
		{"directory sorts as name/", []string{"a-b", "a.md", "a0"}, []string{"a/"}, []string{"a-b", "a.md", "a/", "a0"}},
		{"file becomes directory", []string{"a", "a-b", "a.md", "a0"}, []string{"a/"}, []string{"a-b", "a.md", "a/", "a0"}},
		{"directory becomes file", []string{"a-b", "a.md", "a/", "a0"}, []string{"a"}, []string{"a", "a-b", "a.md", "a0"}},
		{"remove a directory", []string{"logs/", "user_a.md"}, []string{"-logs"}, []string{"user_a.md"}},
		{"odd names", []string{"with space.md", "ü.md"}, []string{"with-dash.md", "-ü.md", "zz z.md"}, []string{"with space.md", "with-dash.md", "zz z.md"}},
		{"many", manyNames(500), []string{"project_x.md", "MEMORY.md", "-topic_00250.md"}, append(append([]string{"MEMORY.md"}, manyNames(250)...), append(manyNames(500)[251:], "project_x.md")...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var changes []treeChange
			for _, c := range tc.changes {
				name, rm := strings.CutPrefix(c, "-")
				name, isDir := strings.CutSuffix(name, "/")
				ch := treeChange{name: []byte(name)}
				if !rm {
					ch.mode, ch.hash = filemode.Regular, plumbing.ComputeHash(plumbing.BlobObject, []byte(c))
					if isDir {
						ch.mode = filemode.Dir
					}
				}
				changes = append(changes, ch)
			}
			parts, err := spliceTree(mktree(t, dir, tc.base), changes)
			if err != nil {
				t.Fatal(err)
			}
			got, want := bytes.Join(parts, nil), mktree(t, dir, tc.want)
			if !bytes.Equal(got, want) {
				t.Errorf("spliced tree:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func manyNames(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("topic_%05d.md", i))
	}
	return out
}

// TestIndexSpliceMatchesGit: the index a commit leaves lists what git
// update-index would have written for the same paths, stat data and all.
func TestIndexSpliceMatchesGit(t *testing.T) {
	requireGit(t)
	for _, tc := range []struct {
		name    string
		base    []string
		changed []string // written anew, or removed when prefixed "-"
	}{
		{"add in the middle", []string{"MEMORY.md", "user_a.md", "user_c.md"}, []string{"user_b.md", "MEMORY.md"}},
		{"add first and last", []string{"b.md"}, []string{"A.md", "z.md"}},
		{"remove", []string{"MEMORY.md", "user_a.md", "user_b.md"}, []string{"-user_a.md", "MEMORY.md"}},
		{"index order is not tree order", []string{"a-b.md", "a.md", "a0.md"}, []string{"a/x.md", "a.b", "-a.md"}},
		{"nested", []string{"MEMORY.md", "logs/2026/11/2026-11-21.md"}, []string{"logs/2026/11/2026-11-22.md", "-logs/2026/11/2026-11-21.md"}},
		{"many", manyNames(300), []string{"project_x.md", "-topic_00150.md", "topic_00299.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			past := time.Now().Add(-time.Hour)
			writeOld := func(p, content string) {
				write(t, filepath.Join(dir, p), content)
				if err := os.Chtimes(filepath.Join(dir, p), past, past); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range tc.base {
				writeOld(p, p+"\n")
			}
			runGit(t, dir, "init", "-q", "-b", "main")
			runGit(t, dir, "add", ".")
			runGit(t, dir, "commit", "-q", "-m", "start")
			var paths []string
			for _, c := range tc.changed {
				p, rm := strings.CutPrefix(c, "-")
				if rm {
					os.Remove(filepath.Join(dir, p))
				} else {
					writeOld(p, "new "+p+"\n")
				}
				paths = append(paths, p)
			}
			before, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Open(dir, testOpts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Commit(paths, "change"); err != nil {
				t.Fatal(err)
			}
			got := runGit(t, dir, "ls-files", "--stage", "--debug")
			if err := os.WriteFile(filepath.Join(dir, ".git", "index"), before, 0o644); err != nil {
				t.Fatal(err)
			}
			runGit(t, dir, append([]string{"update-index", "--add", "--remove", "--"}, paths...)...)
			want := runGit(t, dir, "ls-files", "--stage", "--debug")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("index (-git update-index +memgit):\n%s", diff)
			}
			runGit(t, dir, "fsck", "--strict")
		})
	}
}
