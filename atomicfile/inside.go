package atomicfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/memdir/memdir/untrusted"
)

// Sentinel errors.
var (
	// ErrOutside means a path leads out of the directory it must stay in,
	// through a symlink (or is an absolute symlink, which os.Root never
	// follows).
	ErrOutside = errors.New("leads outside the memory directory through a symlink, which memdir never follows; remove the link or put the file itself there")
	// ErrChanged means a file changed between a read and the write that
	// was to replace it.
	ErrChanged = errors.New("changed since it was read")
)

// openRoot opens dir as an os.Root; dir itself may be a symlink.
func openRoot(dir string) (*os.Root, error) {
	return os.OpenRoot(dir)
}

// outside turns os.Root's escape error into one that names rel and wraps
// ErrOutside; other errors are returned as they are.
func outside(rel string, err error) error {
	if untrusted.Escapes(err) {
		return fmt.Errorf("%s %w", filepath.ToSlash(rel), ErrOutside)
	}
	return err
}

// OpenInside opens the file rel inside dir for reading. A symlink that
// stays inside dir is followed; one that leaves it gives ErrOutside.
func OpenInside(dir, rel string) (*os.File, error) {
	return OpenFileInside(dir, rel, os.O_RDONLY, 0)
}

// OpenFileInside is os.OpenFile for the path rel inside dir, refusing a
// path that leads outside dir (ErrOutside) and anything but a regular
// file (untrusted.ErrNotRegular); the open never blocks on a FIFO.
func OpenFileInside(dir, rel string, flag int, perm os.FileMode) (*os.File, error) {
	root, err := openRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return openIn(root, rel, flag, perm)
}

// openIn opens rel inside root through the untrusted-file owner.
func openIn(root *os.Root, rel string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := untrusted.OpenFileIn(root, rel, flag, perm)
	if err != nil {
		return nil, outside(rel, err)
	}
	return f, nil
}

// ReadInside reads the file rel inside dir, refusing a path that leads
// outside dir (ErrOutside), a file that is not regular and one larger than
// untrusted.MaxMemory.
func ReadInside(dir, rel string) ([]byte, error) {
	f, err := OpenInside(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readFull(f)
}

// readFull reads an open memory file from its start, at most
// untrusted.MaxMemory bytes.
func readFull(f *os.File) ([]byte, error) {
	return untrusted.Read(f, f.Name(), untrusted.MaxMemory)
}

// StatInside is os.Stat for the path rel inside dir: it follows symlinks
// that stay inside and refuses one that leaves (ErrOutside).
func StatInside(dir, rel string) (fs.FileInfo, error) {
	root, err := openRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fi, err := root.Stat(rel)
	return fi, outside(rel, err)
}

// MkdirAllInside creates the directory rel inside dir and its parents,
// refusing a path that leads outside dir (ErrOutside).
func MkdirAllInside(dir, rel string, perm os.FileMode) error {
	root, err := openRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return outside(rel, root.MkdirAll(rel, perm))
}

// Stamp is what a reader saw of a file: whether it existed, its size, its
// modification time and the SHA-256 of its content.
type Stamp struct {
	Exists  bool
	Size    int64
	ModTime time.Time
	Sum     [sha256.Size]byte
}

// ReadStamped reads the file rel inside dir and stamps what it read. A
// missing file gives no data, a zero Stamp and an error wrapping
// fs.ErrNotExist.
func ReadStamped(dir, rel string) ([]byte, Stamp, error) {
	root, err := openRoot(dir)
	if err != nil {
		return nil, Stamp{}, err
	}
	defer root.Close()
	return readStamped(root, rel)
}

func readStamped(root *os.Root, rel string) ([]byte, Stamp, error) {
	f, err := openIn(root, rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, Stamp{}, err
	}
	defer f.Close()
	data, err := readFull(f)
	if err != nil {
		return nil, Stamp{}, err
	}
	// Stat after reading: a write that lands during the read moves the
	// modification time past what the stamp records.
	fi, err := f.Stat()
	if err != nil {
		return nil, Stamp{}, err
	}
	return data, Stamp{Exists: true, Size: fi.Size(), ModTime: fi.ModTime(), Sum: sha256.Sum256(data)}, nil
}

// Same reports whether two stamps describe the same file content.
func (s Stamp) Same(o Stamp) bool {
	return s.Exists == o.Exists && s.Size == o.Size && s.ModTime.Equal(o.ModTime) && bytes.Equal(s.Sum[:], o.Sum[:])
}

// check returns an error wrapping ErrChanged unless rel inside root is
// still what s stamped. It returns the file it checked, open, so that
// settle can see a write that lands in it after the check (nil when
// there is none).
func (s Stamp) check(root *os.Root, rel string) (*os.File, error) {
	f, err := openIn(root, rel, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if s.Exists {
			return nil, fmt.Errorf("%s %w", filepath.ToSlash(rel), ErrChanged)
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	now, err := stampOpen(f)
	if err == nil && !s.Same(now) {
		err = fmt.Errorf("%s %w", filepath.ToSlash(rel), ErrChanged)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// stampOpen stamps an open file's whole content.
func stampOpen(f *os.File) (Stamp, error) {
	data, err := readFull(f)
	if err != nil {
		return Stamp{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		return Stamp{}, err
	}
	return Stamp{Exists: true, Size: fi.Size(), ModTime: fi.ModTime(), Sum: sha256.Sum256(data)}, nil
}

// settle runs after the rename that replaced old, the file check saw as
// s: a writer that opened old before the rename may have written to it
// since, and that write would be lost with the unlinked file. If old
// changed, its content is put back in place of data, followed by what was
// appended to data since (unless yet another writer replaced the file),
// and the error wraps ErrChanged, so the caller reads again and redoes
// its change on top. A writer that opened old before the rename and
// writes only after settle is not seen: only a lock every writer took
// could close that window.
func (s Stamp) settle(root *os.Root, rel string, old *os.File, data []byte) error {
	// A write into the replaced file moves its size or modification
	// time; the content was hashed by check already.
	fi, err := old.Stat()
	if err != nil || fi.Size() == s.Size && fi.ModTime().Equal(s.ModTime) {
		return err
	}
	late, err := readFull(old)
	if err != nil {
		return err
	}
	// What others appended to the new file since the rename stays, after
	// the late write; a file replaced by yet another writer is theirs.
	if cur, err := readIn(root, rel); err == nil && bytes.HasPrefix(cur, data) {
		tmp, werr := writeTemp(root, rel, append(late, cur[len(data):]...), fi.Mode().Perm(), true)
		if werr == nil {
			if werr = root.Rename(tmp, rel); werr != nil {
				_ = root.Remove(tmp)
			}
		}
		if werr != nil {
			return fmt.Errorf("%s was edited while memdir replaced it; that edit is kept in the replaced file only: %w", filepath.ToSlash(rel), werr)
		}
	}
	return fmt.Errorf("%s %w (during the write)", filepath.ToSlash(rel), ErrChanged)
}

// Root is a directory opened once for many reads inside it, as
// ReadInside does one.
type Root struct {
	root *os.Root

	once sync.Once
	dir  *os.File // the root directory itself, for Stamp's fstatat
}

// OpenRoot opens dir (which may itself be a symlink) for reads inside it.
func OpenRoot(dir string) (*Root, error) {
	r, err := openRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Root{root: r}, nil
}

// ReadFile reads the file rel inside the root as ReadInside does.
func (r *Root) ReadFile(rel string) ([]byte, error) {
	return readIn(r.root, rel)
}

// readIn reads rel inside root as ReadInside does.
func readIn(root *os.Root, rel string) ([]byte, error) {
	f, err := openIn(root, rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readFull(f)
}

// Lstat is os.Lstat inside the root.
func (r *Root) Lstat(rel string) (fs.FileInfo, error) {
	fi, err := r.root.Lstat(rel)
	return fi, outside(rel, err)
}

// Stat is os.Stat inside the root: a symlink that leaves it gives
// ErrOutside.
func (r *Root) Stat(rel string) (fs.FileInfo, error) {
	fi, err := r.root.Stat(rel)
	return fi, outside(rel, err)
}

// fd is a descriptor on the root directory, opened once through the
// root (so it is the directory the root holds, whatever its path names
// now) and kept until Close.
func (r *Root) fd() (int, error) {
	r.once.Do(func() { r.dir, _ = r.root.Open(".") })
	if r.dir == nil {
		return -1, os.ErrNotExist
	}
	return int(r.dir.Fd()), nil
}

// stampSlow is Stamp through os.Root's Lstat.
func (r *Root) stampSlow(rel string) (size, mtime, ctime int64, ino uint64, ok bool) {
	fi, err := r.Lstat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, 0, 0, 0, false
	}
	ctime, ino = sysStamp(fi)
	return fi.Size(), fi.ModTime().UnixNano(), ctime, ino, true
}

// Close closes the root.
func (r *Root) Close() error {
	if r.dir != nil {
		r.dir.Close()
	}
	return r.root.Close()
}
