//go:build !linux

package memgit

import "io/fs"

// statOf records only size and mtime off Linux, where lstat's other
// fields are not portable.
func statOf(fi fs.FileInfo) fileStat {
	st := fileStat{mtime: uint32(fi.ModTime().Unix()), mtimeNs: uint32(fi.ModTime().Nanosecond()), size: size32(fi)}
	st.ctime, st.ctimeNs = st.mtime, st.mtimeNs
	return st
}

// sameStat compares the mtime and size of a file with an index entry's:
// all that statOf records here.
func sameStat(entry, file fileStat) bool {
	return entry.mtime == file.mtime && entry.mtimeNs == file.mtimeNs && entry.size == file.size
}

// fileIDOf is unknown off Linux: a lock left behind is then never
// provably memdir's, and is left for the person to remove.
func fileIDOf(fs.FileInfo) fileID { return fileID{} }
