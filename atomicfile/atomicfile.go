// Package atomicfile writes files so that a reader sees either the old
// content or the new, never a mix, and a crash never leaves a torn file.
//
// Every file memdir writes goes through WriteFile: a dotfile temp in the
// same directory (so watchers and globbing skip it), write, fsync, close,
// rename over the target, then fsync the directory so the rename survives a
// power cut.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// TempPrefix starts the name of every temp file WriteFile creates, so that
// watchers and scanners can recognise and skip them.
const TempPrefix = ".memdir-tmp-"

// WriteFile atomically replaces path with data. The file gets mode perm if it
// is new and keeps its mode if it exists. Parent directories must exist.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	if fi, statErr := os.Stat(path); statErr == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: close: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return SyncDir(dir)
}

// SyncDir fsyncs a directory so that renames and creations inside it are
// durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
