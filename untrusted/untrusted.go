// Package untrusted opens files that someone else may have written: the
// instruction files, rules, skills and settings of a cloned repository,
// and the files of a memory directory. It is the one owner of that job.
//
// Every open here
//
//   - refuses a path that leads out of the directory it belongs to
//     through a symbolic link (os.Root does the walk, so a link swapped in
//     during the open cannot escape either; an absolute link is refused
//     even when it points back inside, as os.Root never follows one);
//   - refuses anything but a regular file: a FIFO, a device such as
//     /dev/zero, a socket or a directory. The open itself never blocks
//     (O_NONBLOCK), so a FIFO with no writer cannot hang the caller;
//   - reads at most a documented number of bytes for its kind of file
//     (the Max constants): a larger file is refused with ErrTooLarge,
//     never read without limit.
package untrusted

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Read caps, one per kind of file. They are far above any real file of
// that kind and keep a hostile one from exhausting memory.
const (
	// MaxSettings caps a settings file (.memdir.yaml, an agent's settings).
	MaxSettings = 1 << 20
	// MaxInstruction caps an instruction file, rule, skill or import.
	MaxInstruction = 8 << 20
	// MaxMemory caps a memory file: a topic, an index, a daily log, state.
	MaxMemory = 64 << 20
	// MaxGit caps the small files memdir reads in a .git directory (a .git
	// file, commondir, HEAD).
	MaxGit = 64 << 10
)

// Sentinel errors; the errors returned wrap them.
var (
	// ErrOutside means the path leads out of its directory through a
	// symbolic link.
	ErrOutside = errors.New("a symbolic link leading outside")
	// ErrNotRegular means the path is not a regular file (a FIFO, device,
	// socket or directory).
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge means the file is larger than the cap for its kind.
	ErrTooLarge = errors.New("larger than the limit")
)

// Error describes a refused path.
type Error struct {
	Path  string // the path as given
	Where string // the directory it had to stay in, for ErrOutside
	Err   error  // ErrOutside, ErrNotRegular or ErrTooLarge
	Mode  fs.FileMode
	Limit int64
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason() }

// Reason is the error without the path.
func (e *Error) Reason() string {
	switch e.Err {
	case ErrOutside:
		return fmt.Sprintf("%v %s, which memdir never follows", e.Err, e.Where)
	case ErrNotRegular:
		return fmt.Sprintf("%v (%s)", e.Err, kind(e.Mode))
	case ErrTooLarge:
		return fmt.Sprintf("%v of %d bytes for its kind of file", e.Err, e.Limit)
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// kind names a file mode for a person.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// ReadFile reads the file at path, which must stay inside the directory
// within (an absolute or relative path; "" for a file the user placed
// anywhere, which is then opened as it is), be a regular file and hold at
// most limit bytes.
func ReadFile(path, within string, limit int64) ([]byte, error) {
	f, err := Open(path, within)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, limit)
}

// Open opens the file at path for reading, as ReadFile would.
func Open(path, within string) (*os.File, error) {
	if within == "" {
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return nil, err
		}
		return regular(f, path)
	}
	rel, err := filepath.Rel(within, path)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, &Error{Path: path, Where: within, Err: ErrOutside}
	}
	root, err := os.OpenRoot(within)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return OpenIn(root, rel, path, within)
}

// OpenIn opens rel inside root for reading as Open does; name and where
// name the file and the root in errors.
func OpenIn(root *os.Root, rel, name, where string) (*os.File, error) {
	f, err := OpenFileIn(root, rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, describe(err, name, where)
	}
	return f, nil
}

// OpenFileIn is os.Root.OpenFile that never blocks on a special file and
// refuses anything but a regular file (a *Error wrapping ErrNotRegular),
// and a path leading out of the root (ErrOutside, unnamed: callers add
// their own words with Describe).
func OpenFileIn(root *os.Root, rel string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := root.OpenFile(rel, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		if Escapes(err) {
			return nil, &Error{Path: filepath.ToSlash(rel), Where: "its directory", Err: ErrOutside}
		}
		return nil, err
	}
	return regular(f, filepath.ToSlash(rel))
}

// describe names the file and its directory in an escape error.
func describe(err error, name, where string) error {
	var ue *Error
	if errors.As(err, &ue) {
		c := *ue
		c.Path, c.Where = name, where
		return &c
	}
	return err
}

// regular returns f when it is a regular file, else closes it.
func regular(f *os.File, name string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &Error{Path: name, Err: ErrNotRegular, Mode: fi.Mode()}
	}
	return f, nil
}

// Read reads an open file from its start, at most limit bytes (a
// *Error wrapping ErrTooLarge past it), in one allocation when the size is
// known: io.ReadAll grows its buffer step by step.
func Read(f *os.File, name string, limit int64) ([]byte, error) {
	size := int64(0)
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	if size > limit {
		return nil, &Error{Path: name, Err: ErrTooLarge, Limit: limit}
	}
	buf := make([]byte, 0, size+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.ReadAt(buf[len(buf):cap(buf)], int64(len(buf)))
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &Error{Path: name, Err: ErrTooLarge, Limit: limit}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Escapes reports whether err is os.Root's refusal of a path that leaves
// the root. That error is not exported; it is the only non-errno error an
// os.Root lookup returns.
func Escapes(err error) bool {
	var ue *Error
	if errors.As(err, &ue) {
		return ue.Err == ErrOutside
	}
	for ; err != nil; err = errors.Unwrap(err) {
		var errno syscall.Errno
		if !errors.As(err, &errno) && err.Error() == "path escapes from parent" {
			return true
		}
	}
	return false
}
