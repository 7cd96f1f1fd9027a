// Package atomicfile writes files so that a reader sees either the old
// content or the new, never a mix, and a crash never leaves a torn file.
//
// Every file memdir writes goes through WriteFile or WriteInside: a dotfile
// temp in the same directory (so watchers and globbing skip it), write,
// fsync, close, rename over the target, then fsync the directory so the
// rename survives a power cut (a write given a Batch leaves both fsyncs
// to the batch's Sync, which makes many writes durable at once). The
// temp's name carries the writer's PID, so
// a later run can tell a temp left by a killed process (CleanTemps) from
// one a live writer is filling.
//
// The Inside functions work on a path relative to a directory (the memory
// directory) through an os.Root: a symlink that stays inside is followed,
// one that leads outside (or is absolute) is refused with ErrOutside, so a
// link planted in a repository never makes memdir read or write elsewhere.
//
// A read-modify-write that others may race without taking memdir's lock (a
// person's editor, an agent) reads with ReadStamped and writes with
// Options.Expect: the write is refused with ErrChanged when the file no
// longer matches what was read (size, modification time and SHA-256), so
// an edit memdir did not read is never overwritten. The check runs after
// the temp is written and synced, right before the rename, which leaves a
// window of a few microseconds that only a lock every writer took could
// close.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// TempPrefix starts the name of every temp file WriteFile creates, so that
// watchers and scanners can recognise and skip them.
const TempPrefix = ".memdir-tmp-"

// Options tune WriteInside.
type Options struct {
	// Perm is the mode of a new file; an existing file keeps its mode.
	Perm os.FileMode
	// Expect, when set, is what the caller read: the file must still be
	// exactly that (a zero Stamp: still absent), else nothing is written
	// and the error wraps ErrChanged.
	Expect *Stamp
	// BeforeRename, when set, runs after the temp is complete and before
	// Expect is checked and the temp replaces the file (crash tests kill
	// the process there; race tests edit the file there).
	BeforeRename func()
	// Batch, when set, takes the write's durability over: the temp is
	// not fsynced, nor the directory after the rename, and the file is
	// durable only once Batch.Sync returns (see Batch).
	Batch *Batch
}

// WriteFile atomically replaces path with data. The file gets mode perm if it
// is new and keeps its mode if it exists. Parent directories must exist.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return WriteInside(filepath.Dir(path), filepath.Base(path), data, Options{Perm: perm})
}

// WriteInside atomically replaces the file rel inside dir with data,
// refusing a path that leads outside dir (ErrOutside) and, with
// o.Expect, a file changed since it was read (ErrChanged). A symlink at
// rel itself is replaced, never written through. Parent directories must
// exist. With o.Batch it is durable only after the batch's Sync.
func WriteInside(dir, rel string, data []byte, o Options) (err error) {
	root, err := openRoot(dir)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	defer root.Close()
	path := filepath.Join(dir, rel)
	perm := o.Perm
	if perm == 0 {
		perm = 0o644
	}
	if fi, statErr := root.Lstat(rel); statErr == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	if o.Batch != nil {
		if err = o.Batch.watch(rel); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	tmp, err := writeTemp(root, rel, data, perm, o.Batch == nil)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = root.Remove(tmp)
		}
	}()
	if o.BeforeRename != nil {
		o.BeforeRename()
	}
	var old *os.File
	if o.Expect != nil {
		if old, err = o.Expect.check(root, rel); err != nil {
			return err
		}
		if old != nil {
			defer old.Close()
		}
	}
	if err = root.Rename(tmp, rel); err != nil {
		return fmt.Errorf("write %s: %w", path, outside(rel, err))
	}
	if o.Batch != nil {
		o.Batch.written(rel)
	} else if err = syncDirIn(root, filepath.Dir(rel)); err != nil {
		return err
	}
	if old != nil {
		// After the directory's fsync, not before (when there is one): a
		// writer that opened the replaced file had that long to write,
		// and is seen.
		return o.Expect.settle(root, rel, old, data)
	}
	return nil
}

// writeTemp writes data to a new temp file beside rel, with mode perm,
// fsynced when sync is set, and closes it.
func writeTemp(root *os.Root, rel string, data []byte, perm os.FileMode, sync bool) (string, error) {
	tmp, f, err := createTemp(root, rel)
	if err != nil {
		return "", outside(rel, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && sync {
		if err = f.Sync(); err != nil {
			err = fmt.Errorf("sync: %w", err)
		}
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close: %w", cerr)
	}
	if err != nil {
		_ = root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// createTemp makes a new temp file beside rel, named
// TempPrefix + base + "-" + pid + "-" + random.
func createTemp(root *os.Root, rel string) (string, *os.File, error) {
	for range 100 {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", nil, err
		}
		name := TempPattern(filepath.Base(rel)) + hex.EncodeToString(b[:])
		tmp := filepath.Join(filepath.Dir(rel), name)
		f, err := root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, fmt.Errorf("no free temp name beside %s", rel)
}

// TempPattern is the os.CreateTemp pattern of a temporary file for name
// written by this process: TempPrefix, name, "-", the PID, "-", then the
// random part. Every memdir temp file is named so, which is how
// CleanTemps tells a dead writer's leftovers from a live one's.
func TempPattern(name string) string {
	return TempPrefix + name + "-" + strconv.Itoa(os.Getpid()) + "-"
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

// syncDirIn fsyncs the directory rel inside root.
func syncDirIn(root *os.Root, rel string) error {
	d, err := root.Open(rel)
	if err != nil {
		return fmt.Errorf("sync %s: %w", rel, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", rel, err)
	}
	return nil
}
