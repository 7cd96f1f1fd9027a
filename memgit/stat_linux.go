//go:build linux

package memgit

import (
	"io/fs"
	"syscall"

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
