package memgit

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/memdir/memdir/proc"
)

// testHook, when set by a test, is called at named points of a commit
// (a test process stops there to be killed).
var testHook func(point string)

func hook(point string) {
	if testHook != nil {
		testHook(point)
	}
}

// lockIndex takes this work tree's index.lock (see gitLock).
func (r *Repo) lockIndex() (*gitLock, error) {
	l := newLock(r.gitDir, "index.lock")
	if err := l.lock(); err != nil {
		return nil, err
	}
	hook("index-locked")
	return l, nil
}

// writeIndexLock writes the new index into the held index.lock and
// renames it over the index.
func writeIndexLock(l *gitLock, write func(io.Writer) error) error {
	// No fsync, as git does by default: the index is a cache of the
	// commit just made and the work tree, and git rebuilds a lost one.
	if err := write(l.f); err != nil {
		l.release()
		return fmt.Errorf("write the git index: %w", err)
	}
	if err := l.commit(); err != nil {
		return fmt.Errorf("write the git index: %w", err)
	}
	return nil
}

// fileID tells one file from another: its device and inode.
type fileID struct{ dev, ino uint64 }

// lockOwner is the record of a held lock.
type lockOwner struct {
	proc proc.ID
	file fileID
}

// readOwner reads a record formatOwner wrote.
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

// formatOwner is a lock record's text: the holder as proc.ID writes it,
// then the lock file's device and inode.
func formatOwner(o lockOwner) string {
	return fmt.Sprintf("proc %s\ndev %d\nino %d\n", o.proc, o.file.dev, o.file.ino)
}

// parseOwner reads a lock record; one that names no process or no file
// is not one.
func parseOwner(data string) (lockOwner, bool) {
	var o lockOwner
	head, rest, ok := strings.Cut(data, "\n")
	id, okID := proc.Parse(strings.TrimPrefix(head, "proc "))
	if !ok || !strings.HasPrefix(head, "proc ") || !okID {
		return lockOwner{}, false
	}
	n, err := fmt.Sscanf(rest, "dev %d\nino %d\n", &o.file.dev, &o.file.ino)
	if err != nil || n != 2 || o.file == (fileID{}) {
		return lockOwner{}, false
	}
	o.proc = id
	return o, true
}
