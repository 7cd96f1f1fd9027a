// Package diskfull gives tests a real full disk: a small tmpfs mounted in
// a temp directory, filled to the last byte. Mounting needs root on Linux;
// elsewhere, or without the right, the test is skipped and the package's
// callers rely on their fault-injecting writers instead.
package diskfull

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Mount mounts a tmpfs of size bytes (at least a few pages) in a new temp
// directory and returns its path; it is unmounted when the test ends. The
// test is skipped when no tmpfs can be mounted.
func Mount(t testing.TB, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := mount(dir, size); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (needs root on Linux): %v", err)
	}
	t.Cleanup(func() { _ = unmount(dir) })
	return dir
}

// Fill writes a file named name in dir until the file system is full, so
// the next write that needs a new block fails with ENOSPC. It returns the
// file's path; removing it frees the space again.
func Fill(t testing.TB, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatalf("fill %s: %v", dir, err)
	}
	defer f.Close()
	chunk := make([]byte, 512)
	for {
		if _, err := f.Write(chunk); err != nil {
			if isFull(err) {
				return path
			}
			t.Fatalf("fill %s: %v", dir, err)
		}
	}
}

// isFull reports whether err says the disk is full.
func isFull(err error) bool {
	return errors.Is(err, errNoSpace)
}
