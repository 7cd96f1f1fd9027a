package memgit

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
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

// recordPrefix starts the name of every lock record, in the git dir
// beside the lock's own place.
const recordPrefix = "memdir-lock-"

// recordName starts the name of every record of the lock at rel, before
// "@" and the holder: injective, so that two locks never share a record.
func recordName(rel string) string {
	return recordPrefix + strings.NewReplacer("%", "%25", "/", "%2F", "@", "%40").Replace(rel)
}

// procToken is a holder as a record's name says it: "PID-START" (START
// empty where unknown).
func procToken(id proc.ID) string { return strconv.Itoa(id.PID) + "-" + id.Start }

// parseRecord reads the holder from what follows "@" in a record's name:
// procToken, "-", then the random part that keeps names apart.
func parseRecord(tail string) (proc.ID, bool) {
	pid, rest, ok1 := strings.Cut(tail, "-")
	start, random, ok2 := strings.Cut(rest, "-")
	if !ok1 || !ok2 || random == "" || strings.ContainsAny(pid+start, " \t\n") {
		return proc.ID{}, false
	}
	return proc.Parse(pid + " " + start)
}

// lockRecord is one record of a lock: its path and the process it names.
type lockRecord struct {
	path string
	proc proc.ID
}

// records lists the records of the lock, whichever lock file they are.
func (l *gitLock) records() []lockRecord {
	ents, err := os.ReadDir(l.dir)
	if err != nil {
		return nil
	}
	prefix := recordName(l.rel) + "@"
	var out []lockRecord
	for _, e := range ents {
		tail, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		if id, ok := parseRecord(tail); ok {
			out = append(out, lockRecord{path: filepath.Join(l.dir, e.Name()), proc: id})
		}
	}
	return out
}

// owner is the process whose record is the lock file itself, if any.
func (l *gitLock) owner() (proc.ID, bool) {
	fi, err := os.Lstat(l.path())
	if err != nil {
		return proc.ID{}, false
	}
	for _, rec := range l.records() {
		if rfi, err := os.Lstat(rec.path); err == nil && os.SameFile(fi, rfi) {
			return rec.proc, true
		}
	}
	return l.legacyOwner(fi)
}

// sweep removes the records of this lock that processes now gone left
// without a lock (killed before the link, or after the rename), and any
// legacy record: this process holds the lock, so none vouches for it.
func (l *gitLock) sweep() {
	for _, rec := range l.records() {
		if rec.path != l.rec && rec.proc.Gone() {
			_ = os.Remove(rec.path)
		}
	}
	_ = os.Remove(l.legacyRecord())
}

// legacyRecord is where memdir before the linked records wrote the
// record of the lock at rel: a side file naming the lock's device and
// inode, written after the lock was created.
func (l *gitLock) legacyRecord() string {
	return filepath.Join(l.dir, recordPrefix+strings.ReplaceAll(strings.ReplaceAll(l.rel, "%", "%25"), "/", "%2F"))
}

// legacyOwner reads a legacy record when it names the lock file fi, so
// that a lock an earlier memdir holds or left is still recognised.
func (l *gitLock) legacyOwner(fi fs.FileInfo) (proc.ID, bool) {
	o, err := readOwner(l.legacyRecord())
	if err != nil || fileIDOf(fi) != o.file {
		return proc.ID{}, false
	}
	return o.proc, true
}

// fileID tells one file from another: its device and inode.
type fileID struct{ dev, ino uint64 }

// lockOwner is a legacy record of a held lock.
type lockOwner struct {
	proc proc.ID
	file fileID
}

// readOwner reads a legacy record.
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

// formatOwner is a legacy record's text: the holder as proc.ID writes it,
// then the lock file's device and inode.
func formatOwner(o lockOwner) string {
	return fmt.Sprintf("proc %s\ndev %d\nino %d\n", o.proc, o.file.dev, o.file.ino)
}

// parseOwner reads a legacy record; one that names no process or no file
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
