//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// TestRootStamp checks that Stamp gives a regular file's size, times and
// inode as lstat does, and nothing for whatever a freshness check must
// not trust: a symlink (inside or out), a directory, a FIFO, a missing
// file, and a deeper path through a symlink leading out of the root.
func TestRootStamp(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "topic.md"), "hello")
	write(filepath.Join(dir, "logs", "2026", "day.md"), "a log entry")
	write(filepath.Join(outside, "secret.md"), "outside")
	must(t, os.Symlink("topic.md", filepath.Join(dir, "link.md")))
	must(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "out.md")))
	must(t, os.Symlink(outside, filepath.Join(dir, "away")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644))

	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	for _, name := range []string{"topic.md", "logs/2026/day.md"} {
		size, mtime, _, ino, ok := r.Stamp(name)
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !ok || size != fi.Size() || mtime != fi.ModTime().UnixNano() {
			t.Errorf("Stamp(%s) = size %d mtime %d ok %v, want %d %d true", name, size, mtime, ok, fi.Size(), fi.ModTime().UnixNano())
		}
		if st, isSys := fi.Sys().(*syscall.Stat_t); isSys && runtime.GOOS == "linux" && ino != st.Ino {
			t.Errorf("Stamp(%s) inode %d, want %d", name, ino, st.Ino)
		}
	}
	for _, name := range []string{"link.md", "out.md", "away/secret.md", "logs", "fifo.md", "missing.md", "", ".", ".."} {
		if size, _, _, _, ok := r.Stamp(name); ok {
			t.Errorf("Stamp(%q) = size %d, ok; want not ok", name, size)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestLstatAt checks that LstatAt reports a file as lstat does, a symlink
// as a symlink (never followed), and a missing name as not existing.
func TestLstatAt(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "a.md"), []byte("12345"), 0o644))
	must(t, os.Symlink("a.md", filepath.Join(dir, "l.md")))
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fi, err := LstatAt(d, "a.md")
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != 5 || fi.Name() != "a.md" {
		t.Errorf("LstatAt(a.md) = %v, %v; want a regular file of 5 bytes", fi, err)
	}
	if fi, err := LstatAt(d, "l.md"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("LstatAt(l.md) = %v, %v; want the symlink itself", fi, err)
	}
	if _, err := LstatAt(d, "missing.md"); !os.IsNotExist(err) {
		t.Errorf("LstatAt(missing.md) error %v, want not-exist", err)
	}
}
