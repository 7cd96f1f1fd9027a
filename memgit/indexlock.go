package memgit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// indexLock is git's index.lock, taken the way git takes it (O_EXCL), so
// that memgit and a git process never write the index at the same time.
// The new index is written into the lock file and renamed over the index.
//
// While it holds the lock, memgit records in the git dir (ownerFile)
// which process holds it and which file the lock is, so that a lock left
// by a memdir that was killed is recognised as such and removed by the
// next one. A lock with no such record (git's, or one whose holder is
// still alive) is never touched: memory is then not committed, and every
// attempt says why.
type indexLock struct {
	f     *os.File
	path  string
	owner string
	done  bool
}

// ownerFile is memgit's record of the index.lock it holds, in the git
// dir beside the lock.
const ownerFile = "memdir-index-lock"

// testHook, when set by a test, is called at named points of a commit
// (a test process stops there to be killed).
var testHook func(point string)

func hook(point string) {
	if testHook != nil {
		testHook(point)
	}
}

func (r *Repo) lockIndex() (*indexLock, error) {
	l := &indexLock{path: filepath.Join(r.gitDir, "index.lock"), owner: filepath.Join(r.gitDir, ownerFile)}
	err := l.take()
	if errors.Is(err, fs.ErrExist) && l.stale() {
		_ = os.Remove(l.path)
		_ = os.Remove(l.owner)
		err = l.take()
	}
	if errors.Is(err, fs.ErrExist) {
		return nil, &RefusedError{Reason: l.heldBy()}
	}
	if err != nil {
		return nil, fmt.Errorf("lock the git index: %w", err)
	}
	hook("index-locked")
	return l, nil
}

// take creates the lock file and records it as this process's.
func (l *indexLock) take() error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	l.f = f
	fi, err := f.Stat()
	if err == nil {
		err = writeOwner(l.owner, lockOwner{proc: self(), file: fileIDOf(fi)})
	}
	if err != nil {
		l.release()
		return fmt.Errorf("record the holder of %s: %w", l.path, err)
	}
	return nil
}

// stale reports whether the lock is provably one a memdir process left
// behind when it died: the record names this very lock file and a
// process that is gone.
func (l *indexLock) stale() bool {
	o, err := readOwner(l.owner)
	if err != nil {
		return false
	}
	fi, err := os.Lstat(l.path)
	return err == nil && fileIDOf(fi) == o.file && o.proc.gone()
}

// heldBy says who seems to hold the lock, and what to do.
func (l *indexLock) heldBy() string {
	if o, err := readOwner(l.owner); err == nil {
		if fi, err := os.Lstat(l.path); err == nil && fileIDOf(fi) == o.file {
			return fmt.Sprintf("%s is held by memdir (process %d), which is still running; memory is not being committed until it is done", l.path, o.proc.pid)
		}
	}
	return fmt.Sprintf("%s exists: a git process is running in this repository, or one was killed and left it; memory is not being committed until the file is gone (remove it if no git process is running)", l.path)
}

// commit writes the new index into the lock file with write and renames
// it over the index.
func (l *indexLock) commit(write func(io.Writer) error) error {
	if err := write(l.f); err != nil {
		return fmt.Errorf("write the git index: %w", err)
	}
	// No fsync, as git does by default: the index is a cache of the
	// commit just made and the work tree, and git rebuilds a lost one.
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("write the git index: %w", err)
	}
	l.done = true
	defer os.Remove(l.owner)
	if err := os.Rename(l.path, strings.TrimSuffix(l.path, ".lock")); err != nil {
		_ = os.Remove(l.path)
		return fmt.Errorf("write the git index: %w", err)
	}
	return nil
}

// release drops the lock without touching the index, unless commit ran.
func (l *indexLock) release() {
	if l.done {
		return
	}
	l.done = true
	_ = l.f.Close()
	_ = os.Remove(l.path)
	_ = os.Remove(l.owner)
}

// fileID tells one file from another: its device and inode.
type fileID struct{ dev, ino uint64 }

// lockOwner is the record of a held lock.
type lockOwner struct {
	proc process
	file fileID
}

// writeOwner writes the record, never seen half written.
func writeOwner(name string, o lockOwner) error {
	return writeSmallFile(name, formatOwner(o))
}

// readOwner reads a record writeOwner wrote.
func readOwner(name string) (lockOwner, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return lockOwner{}, err
	}
	o, ok := parseOwner(string(data))
	if !ok {
		return lockOwner{}, fmt.Errorf("%s: not a lock record", name)
	}
	return o, nil
}

// formatOwner is a lock record's text; an unknown start time is "-".
func formatOwner(o lockOwner) string {
	start := o.proc.start
	if start == "" {
		start = "-"
	}
	return fmt.Sprintf("pid %d\nstart %s\ndev %d\nino %d\n", o.proc.pid, start, o.file.dev, o.file.ino)
}

// parseOwner reads a lock record; one that names no process or no file
// is not one.
func parseOwner(data string) (lockOwner, bool) {
	var o lockOwner
	n, err := fmt.Sscanf(data, "pid %d\nstart %s\ndev %d\nino %d\n", &o.proc.pid, &o.proc.start, &o.file.dev, &o.file.ino)
	if err != nil || n != 4 || o.proc.pid <= 0 || o.file == (fileID{}) {
		return lockOwner{}, false
	}
	if o.proc.start == "-" {
		o.proc.start = ""
	}
	return o, true
}
