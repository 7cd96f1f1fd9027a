package memdir

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// DefaultLockTimeout is how long a command waits for another to finish
// with the memory directory.
const DefaultLockTimeout = 10 * time.Second

// Lock is the sidecar lock .memdir/lock held during every
// read-modify-write of shared files. The lock file is never renamed over;
// while held it names its holder, so a waiter that gives up can say who
// had it.
type Lock struct {
	fl   *flock.Flock
	path string
}

// LockTimeoutError reports that the lock stayed taken past the timeout.
type LockTimeoutError struct {
	Path    string
	Holder  string
	Timeout time.Duration
}

func (e *LockTimeoutError) Error() string {
	holder := e.Holder
	if holder == "" {
		holder = "another process"
	}
	return fmt.Sprintf("%s: still held by %s after %s; wait for it to finish and try again", e.Path, holder, e.Timeout)
}

// Unwrap lets errors.Is(err, ErrLocked) match.
func (e *LockTimeoutError) Unwrap() error { return ErrLocked }

// AcquireLock takes the lock of the memory directory dir, waiting at most
// timeout. what names the holder's work in the message a waiter sees.
func AcquireLock(ctx context.Context, dir string, timeout time.Duration, what string) (*Lock, error) {
	state := filepath.Join(dir, StateDir)
	if err := os.MkdirAll(state, 0o755); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	path := filepath.Join(state, "lock")
	fl := flock.New(path)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	if !ok {
		if err == nil || ctx.Err() != nil {
			holder, _ := os.ReadFile(path)
			return nil, &LockTimeoutError{Path: path, Holder: strings.TrimSpace(string(holder)), Timeout: timeout}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// The holder note is informational: a waiter reads it only while the
	// lock is held, so it needs no atomic write and no fsync.
	note := fmt.Sprintf("pid %d (memdir %s, since %s)\n", os.Getpid(), what, time.Now().Format(time.TimeOnly))
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
		_, _ = f.WriteString(note)
		_ = f.Close()
	}
	return &Lock{fl: fl, path: path}, nil
}

// Release clears the holder note and lets the next process in.
func (l *Lock) Release() error {
	if f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
		_ = f.Close()
	}
	return l.fl.Unlock()
}
