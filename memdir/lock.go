package memdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
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
	// turn is this process's queue for the lock file, which the lock
	// holds a place in until it is let go.
	turn chan struct{}
	gone atomic.Bool // the place was given back
	// left is the note of a holder that never released the lock: it was
	// killed while it held it. Empty after a clean release.
	left string
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
//
// The state directory and the lock file are never reached through a
// symlink that leads out of dir (atomicfile.ErrOutside): a linked .memdir
// would put the lock, and every process's agreement on it, elsewhere.
func AcquireLock(ctx context.Context, dir string, timeout time.Duration, what string) (*Lock, error) {
	if err := atomicfile.MkdirAllInside(dir, StateDir, 0o755); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	rel := filepath.Join(StateDir, "lock")
	fi, err := atomicfile.StatInside(dir, rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err == nil && !fi.Mode().IsRegular() {
		// A FIFO would block the holder-note reads below for ever.
		return nil, fmt.Errorf("lock: %w", &untrusted.Error{Path: filepath.Join(dir, rel), Err: untrusted.ErrNotRegular, Mode: fi.Mode()})
	}
	path := filepath.Join(dir, rel)
	fl := flock.New(path)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	turn := queueOf(path)
	timedOut := func() error {
		holder, _ := os.ReadFile(path)
		return &LockTimeoutError{Path: path, Holder: strings.TrimSpace(string(holder)), Timeout: timeout}
	}
	select {
	case turn <- struct{}{}:
	case <-ctx.Done():
		return nil, timedOut()
	}
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	if !ok {
		<-turn
		if err == nil || ctx.Err() != nil {
			return nil, timedOut()
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// A note left in the file is a holder that was killed: Release
	// clears it.
	left, _ := os.ReadFile(path)
	// The holder note is informational: a waiter reads it only while the
	// lock is held, so it needs no atomic write and no fsync.
	note := fmt.Sprintf("pid %d (memdir %s, since %s)\n", os.Getpid(), what, time.Now().Format(time.TimeOnly))
	lk := &Lock{fl: fl, path: path, turn: turn, left: strings.TrimSpace(string(left))}
	lk.note(note)
	return lk, nil
}

// note replaces the holder note.
func (l *Lock) note(s string) {
	if f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
		_, _ = f.WriteString(s)
		_ = f.Close()
	}
}

// abandon lets the lock go with the killed holder's note put back, so
// that the next process repairs what it left.
func (l *Lock) abandon() {
	l.note(l.left + "\n")
	_ = l.fl.Unlock()
	l.giveBack()
}

// leftBy returns the work a killed holder's note names ("add", "dream"),
// or "" when the note is not memdir's.
func leftBy(note string) string {
	_, rest, ok := strings.Cut(note, "(memdir ")
	if !ok {
		return ""
	}
	what, _, _ := strings.Cut(rest, ", since")
	return what
}

// Release clears the holder note and lets the next process in.
func (l *Lock) Release() error {
	if f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
		_ = f.Close()
	}
	err := l.fl.Unlock()
	l.giveBack()
	return err
}

// giveBack lets this process's next taker of the lock file poll it, once.
func (l *Lock) giveBack() {
	if l.turn != nil && l.gone.CompareAndSwap(false, true) {
		<-l.turn
	}
}

// queues holds a one-place queue per lock file: the goroutines of one
// process (the MCP server, the daemon) wait their turn in order, and only
// the first polls the file lock. Without it every waiter polled flock
// every 5 ms: 60 concurrent MCP adds made 20,370 flock calls.
var queues sync.Map // lock file path -> chan struct{}

func queueOf(path string) chan struct{} {
	q, _ := queues.LoadOrStore(path, make(chan struct{}, 1))
	return q.(chan struct{})
}
