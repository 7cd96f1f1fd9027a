package memgit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/proc"
)

// gitLock is one of git's lock files (index.lock, HEAD.lock,
// refs/heads/NAME.lock), taken the way git takes it (the name is created
// only if it does not exist), so that memgit and a git process never
// write the same file at the same time. Its content is what git expects
// there: the new index or ref is written into it and it is renamed over
// the file it locks, or, for a lock taken only to keep others out, it is
// removed.
//
// The lock never exists without its owner record. memgit first creates
// the record, a file in the git dir (outside refs/, where git would read
// it as a ref) whose name says which lock it is for and which process
// holds it (proc.ID: PID and start time), and then hard-links it to the
// lock's name; link(2), like O_EXCL, fails when the name exists. The lock
// and its record are then one file under two names, so a record vouches
// for a lock exactly when it is the same file, and a kill at any point
// leaves either no lock or a lock with its record. A lock whose record
// names a process that is provably gone was left by a memdir that was
// killed: the next memdir removes it. Any other lock (git's, a live
// memdir's) is never touched; memory is then not committed, every attempt
// says why with the command that clears it, and ForeignLocks reports it.
// Where the file system has no hard links the lock is taken as git takes
// it, with no record.
type gitLock struct {
	dir    string // the git dir that holds it
	rel    string // the lock relative to dir, slash-separated
	rec    string // this process's record while it holds the lock, "" if none
	f      *os.File
	closed bool
}

func newLock(dir, rel string) *gitLock { return &gitLock{dir: dir, rel: rel} }

// path is the lock file.
func (l *gitLock) path() string { return filepath.Join(l.dir, filepath.FromSlash(l.rel)) }

// lock takes l, removing it first when a killed memdir left it. A lock
// held by anyone else is a RefusedError saying who and what to do.
func (l *gitLock) lock() error {
	err := l.take()
	if errors.Is(err, fs.ErrExist) && l.stale() {
		_ = os.Remove(l.path()) // the lock first: a record alone is only litter
		_ = os.Remove(l.legacyRecord())
		err = l.take()
	}
	if errors.Is(err, fs.ErrExist) {
		return &RefusedError{Reason: l.heldBy()}
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", l.rel, err)
	}
	l.sweep()
	return nil
}

// take creates the lock with its record in one step: the record first,
// under a name of its own, then linked to the lock's name.
func (l *gitLock) take() error {
	if err := os.MkdirAll(filepath.Dir(l.path()), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(l.dir, recordName(l.rel)+"@"+procToken(proc.Self())+"-*")
	if err != nil {
		return fmt.Errorf("record the holder of %s: %v", l.path(), err)
	}
	err = f.Chmod(0o644)
	if err == nil {
		err = os.Link(f.Name(), l.path())
	}
	if err == nil {
		l.f, l.rec = f, f.Name()
		return nil
	}
	_ = f.Close()
	_ = os.Remove(f.Name())
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	// No hard links here: take it as git does, unrecorded.
	l.f, err = os.OpenFile(l.path(), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	return err
}

// stale reports whether the lock is provably one a memdir process left
// behind when it died: a record that is the lock file names a process
// that is gone.
func (l *gitLock) stale() bool {
	o, ok := l.owner()
	return ok && o.Gone()
}

// heldBy says who seems to hold the lock, and what to do.
func (l *gitLock) heldBy() string {
	if o, ok := l.owner(); ok {
		return fmt.Sprintf("%s is held by memdir (process %d), which is still running; memory is not being committed until it is done", l.path(), o.PID)
	}
	return fmt.Sprintf("%s exists: a git process is running in this repository, or one was killed and left it; "+
		"memory is not being committed until the file is gone (if no git process is running, remove it: %s)", l.path(), rmCommand(l.path()))
}

// commit closes the written lock and renames it over the file it locks.
func (l *gitLock) commit() error {
	err := l.f.Close()
	l.closed = true
	if err == nil {
		err = os.Rename(l.path(), strings.TrimSuffix(l.path(), ".lock"))
	}
	if err != nil {
		_ = os.Remove(l.path())
	}
	l.dropRecord()
	return err
}

// release drops the lock without touching the file it locks, unless
// commit ran.
func (l *gitLock) release() {
	if l.closed || l.f == nil {
		return
	}
	l.closed = true
	_ = l.f.Close()
	_ = os.Remove(l.path())
	l.dropRecord()
}

// dropRecord removes this process's record, once the lock is gone.
func (l *gitLock) dropRecord() {
	if l.rec != "" {
		_ = os.Remove(l.rec)
	}
}

// rmCommand is the shell command that removes a file.
func rmCommand(p string) string {
	return "rm '" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// LockReport is a git lock file memdir cannot prove is its own: git's
// (a git process is running, or one was killed), or one a record does
// not vouch for. While it exists, what it locks is not written: memory
// is not committed when it is the index, HEAD or the current branch.
type LockReport struct {
	// Path is the lock file.
	Path string `json:"path"`
	// Age is how long ago the lock file was last written.
	Age time.Duration `json:"age"`
	// Remove is the shell command that clears it, to run only when no
	// git process is running in the repository.
	Remove string `json:"remove"`
}

// ForeignLocks lists the git lock files of the repository that holds the
// memory directory memDir that memdir did not take, or whose holder it
// cannot prove: index.lock and HEAD.lock of its work tree, packed-refs.lock,
// and every lock under refs/. A lock a running memdir holds is not listed
// (it is in use), nor one a killed memdir left (the next commit removes
// it). It only reads; with no repository it lists nothing.
func ForeignLocks(memDir string, now time.Time) ([]LockReport, error) {
	r, err := Open(memDir, Options{})
	if errors.Is(err, ErrNoRepo) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	locks := []*gitLock{newLock(r.gitDir, "index.lock"), newLock(r.gitDir, "HEAD.lock"), newLock(r.common, "packed-refs.lock")}
	refs := filepath.Join(r.common, "refs")
	err = filepath.WalkDir(refs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".lock") {
			return nil
		}
		rel, _ := filepath.Rel(r.common, p)
		locks = append(locks, newLock(r.common, filepath.ToSlash(rel)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []LockReport
	for _, l := range locks {
		fi, err := os.Lstat(l.path())
		if err != nil {
			continue
		}
		if _, ok := l.owner(); ok {
			continue // memdir's: in use, or removed by the next commit
		}
		out = append(out, LockReport{Path: l.path(), Age: now.Sub(fi.ModTime()), Remove: rmCommand(l.path())})
	}
	return out, nil
}
