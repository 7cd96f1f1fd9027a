package dream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/proc"
)

// LockFile is the consolidation lock in the memory directory, shared with
// other tools that dream the same layout: while a dream runs it names the
// dreaming process; its mtime is the time of the last dream.
//
// memdir writes its holder as proc.ID's "PID START", so a PID reused by
// another process is not taken for the holder; a lock holding a bare PID
// (as Claude Code writes it) is honoured while that PID runs. The holder
// is written atomically (a new file renamed over the lock), so a dream
// that cannot take the lock, on a full disk say, leaves the lock as it
// was. A finished dream empties the lock and sets its mtime; a failed one
// puts back the previous dream's time, or removes the lock when there was
// no previous dream, so a failure never reads as a dream.
const LockFile = ".consolidate-lock"

// StaleAfter is how long a held consolidation lock is honoured; an older
// one is taken over even if its holder still runs.
const StaleAfter = time.Hour

// maxLockBytes bounds what is read of a lock: a holder is a PID and a
// start time. A longer lock names no holder.
const maxLockBytes = 64

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
	dir    string
	holder []byte    // what this dream wrote into it
	prev   time.Time // the mtime before it was taken (the last dream); zero when there was no lock
}

// lockState is what a lock says: its content, the holder it names (ok
// false when it names none) and its mtime (zero when there is no lock).
type lockState struct {
	data   []byte
	holder proc.ID
	named  bool
	mtime  time.Time
}

// readLock reads the lock of dir. The lock is a file of the memory
// directory, so it is opened as any untrusted file is: not through a
// symlink leading out, not a FIFO, and read only so far.
func readLock(dir string) (lockState, error) {
	f, err := atomicfile.OpenInside(dir, LockFile)
	if errors.Is(err, fs.ErrNotExist) {
		return lockState{}, nil
	}
	if err != nil {
		return lockState{}, fmt.Errorf("read %s: %w", LockFile, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return lockState{}, fmt.Errorf("read %s: %w", LockFile, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxLockBytes+1))
	if err != nil {
		return lockState{}, fmt.Errorf("read %s: %w", LockFile, err)
	}
	st := lockState{data: data, mtime: fi.ModTime()}
	if len(data) <= maxLockBytes {
		st.holder, st.named = proc.Parse(string(data))
	}
	return st, nil
}

// LastDream returns the time of the last finished dream of the memory
// directory dir (the lock's mtime), or the zero time if it never dreamed.
func LastDream(dir string) (time.Time, error) {
	st, err := readLock(dir)
	return st.mtime, err
}

// held returns a *HeldError when the lock names a holder other than this
// process that has not provably ended and the lock is not stale.
func (st lockState) held(wall time.Time) error {
	if st.named && st.holder.PID != os.Getpid() && !st.holder.Gone() && wall.Sub(st.mtime) < StaleAfter {
		return &HeldError{PID: st.holder.PID, Since: st.mtime}
	}
	return nil
}

// checkHeld returns a *HeldError when another live process holds the
// lock of dir and it is not stale.
func checkHeld(dir string, wall time.Time) error {
	st, err := readLock(dir)
	if err != nil {
		return err
	}
	return st.held(wall)
}

// acquireConsolidate takes the lock. The caller holds the sidecar lock,
// so two memdir processes never take it over at once; another tool that
// honours the PID is kept out by the PID.
func acquireConsolidate(dir string, wall time.Time) (*consolidateLock, error) {
	st, err := readLock(dir)
	if err != nil {
		return nil, err
	}
	if err := st.held(wall); err != nil {
		return nil, err
	}
	holder := []byte(proc.Self().String() + "\n")
	if err := atomicfile.WriteInside(dir, LockFile, holder, atomicfile.Options{Perm: 0o644}); err != nil {
		return nil, fmt.Errorf("take %s: %w", LockFile, err)
	}
	return &consolidateLock{dir: dir, holder: holder, prev: st.mtime}, nil
}

// release ends the dream's hold on the lock: done, the lock is emptied
// and its mtime is wall, the time of this dream; else it gets back the
// previous dream's time, or goes when there was none. A lock another
// tool took over meanwhile (after StaleAfter) is left alone.
//
// Emptying truncates the lock in place, which needs no free space; the
// mtime is set right after. A process killed between the two leaves an
// empty lock with the time of the truncation.
func (l *consolidateLock) release(done bool, wall time.Time) error {
	root, err := os.OpenRoot(l.dir)
	if err != nil {
		return fmt.Errorf("release %s: %w", LockFile, err)
	}
	defer root.Close()
	f, err := atomicfile.OpenFileInside(l.dir, LockFile, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // removed by hand: nothing to release
	}
	if err != nil {
		return fmt.Errorf("release %s: %w", LockFile, err)
	}
	defer f.Close()
	cur, err := io.ReadAll(io.LimitReader(f, maxLockBytes+1))
	if err != nil {
		return fmt.Errorf("release %s: %w", LockFile, err)
	}
	if !bytes.Equal(cur, l.holder) {
		return nil // taken over: no longer ours to release
	}
	at := wall
	if !done {
		if l.prev.IsZero() {
			if err := root.Remove(LockFile); err != nil {
				return fmt.Errorf("release %s: %w", LockFile, err)
			}
			return nil
		}
		at = l.prev
	}
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("release %s: %w", LockFile, err)
	}
	if err := root.Chtimes(LockFile, at, at); err != nil {
		return fmt.Errorf("release %s: %w", LockFile, err)
	}
	return nil
}
