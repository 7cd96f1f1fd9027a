//go:build linux

package search

import (
	"io/fs"
	"syscall"
)

// inodeOf returns a file's inode and change time: an atomic save (a new
// inode) or a copy that keeps the modification time (a new ctime) is a
// change even at the same size and mtime.
func inodeOf(fi fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Nano()
	}
	return 0, 0
}
