//go:build linux

package memgit

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// statOf is the stat data git records in an index entry for a file, as
// git's fill_stat_data takes it from lstat.
func statOf(fi fs.FileInfo) fileStat {
	st := fileStat{mtime: uint32(fi.ModTime().Unix()), mtimeNs: uint32(fi.ModTime().Nanosecond()), size: size32(fi)}
	switch sys := fi.Sys().(type) {
	case *syscall.Stat_t: // os.Lstat's
		st.ctime, st.ctimeNs = uint32(sys.Ctim.Sec), uint32(sys.Ctim.Nsec)
		st.dev, st.ino = uint32(sys.Dev), uint32(sys.Ino)
		st.uid, st.gid = sys.Uid, sys.Gid
	case *unix.Stat_t: // lstatAt's
		st.ctime, st.ctimeNs = uint32(sys.Ctim.Sec), uint32(sys.Ctim.Nsec)
		st.dev, st.ino = uint32(sys.Dev), uint32(sys.Ino)
		st.uid, st.gid = sys.Uid, sys.Gid
	default:
		st.ctime, st.ctimeNs = st.mtime, st.mtimeNs
	}
	return st
}

// sameStat reports whether a file's stat data matches an index entry's,
// comparing what git's match_stat_data compares (ctime and mtime to the
// nanosecond, device, inode, owner, size): a match means the file still
// holds the content the entry hashed, unless the entry is racy.
func sameStat(entry, file fileStat) bool { return entry == file }

// fileIDOf is a file's device and inode.
func fileIDOf(fi fs.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{dev: uint64(st.Dev), ino: st.Ino}
	}
	return fileID{}
}

// lstatAt is lstat of name in the directory dir is open on (by its
// full path). fstatat relative to the directory resolves one path
// component instead of every one, and skips os.Lstat's allocations: a
// status at 10,000 topics lstats every file.
func lstatAt(dir *os.File, name string) (fs.FileInfo, error) {
	fi := &statInfo{name: name}
	if err := unix.Fstatat(int(dir.Fd()), name, &fi.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
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
