//go:build linux

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// lstatRaw is fstatat of name relative to the directory descriptor fd,
// never following a final symlink: the one place memdir calls it.
func lstatRaw(fd int, name string, st *unix.Stat_t) error {
	return unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW)
}

// LstatAt is lstat of name in the directory dir is open on (by its
// full path). fstatat relative to the directory resolves one path
// component instead of every one, and skips os.Lstat's allocations (a
// git status at 10,000 topics lstats every file). Its Sys is a
// *unix.Stat_t. A name with a slash follows links on the way: callers
// pass one component.
func LstatAt(dir *os.File, name string) (fs.FileInfo, error) {
	fi := &statInfo{name: name}
	if err := lstatRaw(int(dir.Fd()), name, &fi.st); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: filepath.Join(dir.Name(), name), Err: err}
	}
	return fi, nil
}

// statInfo is an fs.FileInfo over what fstatat returned.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (fi *statInfo) Name() string       { return fi.name }
func (fi *statInfo) Size() int64        { return fi.st.Size }
func (fi *statInfo) ModTime() time.Time { return time.Unix(fi.st.Mtim.Unix()) }
func (fi *statInfo) IsDir() bool        { return fi.Mode().IsDir() }
func (fi *statInfo) Sys() any           { return &fi.st }

// Mode maps the file type and permission bits as os.Lstat does.
func (fi *statInfo) Mode() fs.FileMode {
	mode := fs.FileMode(fi.st.Mode & 0o777)
	switch fi.st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	default:
		mode |= fs.ModeIrregular
	}
	return mode
}
