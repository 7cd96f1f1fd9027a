package memgit

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBigObjects: a MEMORY.md and a root tree over scanLimit are what
// git reads back, and fsck passes.
func TestBigObjects(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	var ix strings.Builder
	var paths []string
	for i := range 1000 {
		name := fmt.Sprintf("project_topic_with_a_longer_name_%05d.md", i)
		write(t, filepath.Join(dir, name), fmt.Sprintf("topic %d\n", i))
		fmt.Fprintf(&ix, "- [Topic %d](%s) — a hook long enough to make the index over 64 KB: %d\n", i, name, i)
		paths = append(paths, name)
	}
	write(t, filepath.Join(dir, "MEMORY.md"), ix.String())
	if _, err := r.Commit(append(paths, "MEMORY.md"), "many"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "user_new.md"), "new\n")
	write(t, filepath.Join(dir, "MEMORY.md"), ix.String()+"- [New](user_new.md) — new\n")
	os.Remove(filepath.Join(dir, "project_topic_with_a_longer_name_00007.md"))
	if _, err := r.Commit([]string{"user_new.md", "MEMORY.md", "project_topic_with_a_longer_name_00007.md"}, "add user_new.md"); err != nil {
		t.Fatal(err)
	}
	for _, obj := range []string{"HEAD^{tree}", "HEAD:MEMORY.md"} {
		size, _ := strconv.Atoi(strings.TrimSpace(runGit(t, dir, "cat-file", "-s", obj)))
		if size < scanLimit {
			t.Fatalf("%s is %d bytes, want %d or more", obj, size, scanLimit)
		}
	}
	if got := runGit(t, dir, "cat-file", "blob", "HEAD:MEMORY.md"); got != ix.String()+"- [New](user_new.md) — new\n" {
		t.Errorf("MEMORY.md at HEAD is %d bytes, want %d", len(got), ix.Len()+len("- [New](user_new.md) — new\n"))
	}
	if out := runGit(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("git status = %q, want clean", out)
	}
	runGit(t, dir, "fsck", "--strict")
	if n := strings.Count(runGit(t, dir, "ls-tree", "HEAD"), "\n"); n != 1000+3 {
		t.Errorf("root tree has %d entries, want %d", n, 1003)
	}
}

// TestLooseObjectsAsGitWritesThem: memgit writes loose objects at zlib's
// best speed (the header git's own loose objects carry by default,
// core.looseCompression 1), read-only, and git reads them back.
func TestLooseObjectsAsGitWritesThem(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	write(t, filepath.Join(dir, "user_a.md"), "a body long enough to be compressed at all\n")
	if _, err := r.Commit([]string{"user_a.md"}, "add user_a.md"); err != nil {
		t.Fatal(err)
	}
	hash := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD:user_a.md"))
	path := filepath.Join(r.objectsDir(), hash[:2], hash[2:])
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the blob is not a loose object: %v", err)
	}
	if len(data) < 2 || data[0] != 0x78 || data[1] != 0x01 {
		t.Errorf("loose object header % x, want 78 01 (zlib, best speed)", data[:2])
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o444 {
		t.Errorf("loose object mode %v, want read-only 0444 (%v)", fi.Mode().Perm(), err)
	}
	if got := runGit(t, dir, "cat-file", "blob", hash); got != "a body long enough to be compressed at all\n" {
		t.Errorf("git reads %q back", got)
	}
	runGit(t, dir, "fsck", "--strict")
}
