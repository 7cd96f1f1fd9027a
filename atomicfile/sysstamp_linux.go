package atomicfile

import (
	"io/fs"
	"syscall"
)

// sysStamp is a file's change time and inode, from its lstat.
func sysStamp(fi fs.FileInfo) (ctime int64, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano(), st.Ino
	}
	return 0, 0
}
