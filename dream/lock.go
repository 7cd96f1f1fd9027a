package dream

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LockFile is the consolidation lock in the memory directory, shared with
// other tools that dream the same layout: while a dream runs it holds the
// dreaming process's PID; its mtime is the time of the last dream.
const LockFile = ".consolidate-lock"

// StaleAfter is how long a held consolidation lock is honoured; an older
// one is taken over even if its holder still runs.
const StaleAfter = time.Hour

// HeldError reports a consolidation lock held by a live process.
type HeldError struct {
	PID   int
	Since time.Time
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("another dream is running (pid %d, since %s; lock %s): try again when it has finished", e.PID, e.Since.Format(time.RFC3339), LockFile)
}

// Unwrap lets errors.Is(err, ErrHeld) match.
func (e *HeldError) Unwrap() error { return ErrHeld }

// ErrHeld means another process is dreaming the directory.
var ErrHeld = errors.New("dream already running")

// consolidateLock is a held .consolidate-lock.
type consolidateLock struct {
	path string
	prev time.Time // the mtime before we took it: the last dream
}

// lockHolder reads the lock: the PID inside (0 when none) and its mtime
// (zero when there is no lock file).
func lockHolder(dir string) (pid int, mtime time.Time, err error) {
	path := filepath.Join(dir, LockFile)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, time.Time{}, nil
	}
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("stat %s: %w", LockFile, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("read %s: %w", LockFile, err)
	}
	pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
	return pid, fi.ModTime(), nil
}

// LastDream returns the time of the last finished dream of the memory
// directory dir (the lock's mtime), or the zero time if it never dreamed.
func LastDream(dir string) (time.Time, error) {
	_, mtime, err := lockHolder(dir)
	return mtime, err
}

// checkHeld returns a *HeldError when a live process other than this one
// holds the lock and it is not stale.
func checkHeld(dir string, wall time.Time) error {
	pid, mtime, err := lockHolder(dir)
	if err != nil {
		return err
	}
	if pid > 0 && pid != os.Getpid() && alive(pid) && wall.Sub(mtime) < StaleAfter {
		return &HeldError{PID: pid, Since: mtime}
	}
	return nil
}

// acquireConsolidate takes the lock. The caller holds the sidecar lock,
// so two memdir processes never take it over at once; another tool that
// honours the PID is kept out by the PID.
func acquireConsolidate(dir string, wall time.Time) (*consolidateLock, error) {
	if err := checkHeld(dir, wall); err != nil {
		return nil, err
	}
	_, prev, err := lockHolder(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("take %s: %w", LockFile, err)
	}
	return &consolidateLock{path: path, prev: prev}, nil
}

// release empties the lock and sets its mtime: the time of this dream when
// it finished, else the previous dream's time.
func (l *consolidateLock) release(done bool, wall time.Time) error {
	if err := os.WriteFile(l.path, nil, 0o644); err != nil {
		return fmt.Errorf("release %s: %w", LockFile, err)
	}
	at := wall
	if !done {
		if l.prev.IsZero() {
			return os.Remove(l.path)
		}
		at = l.prev
	}
	if err := os.Chtimes(l.path, at, at); err != nil {
		return fmt.Errorf("release %s: %w", LockFile, err)
	}
	return nil
}

// alive reports whether a process with this PID exists.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
