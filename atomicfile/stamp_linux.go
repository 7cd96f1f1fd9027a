//go:build linux

package atomicfile

import (
	"strings"

	"golang.org/x/sys/unix"
)

// Stamp returns what a freshness check compares of the regular file rel
// inside the root: its size, modification and change times (nanoseconds)
// and inode. ok is false when rel is gone, is not a regular file or
// cannot be reached inside the root (a symlink is never followed). A name
// without a slash is stamped by one fstatat on the root's descriptor,
// with nothing allocated (a search stamps every topic file); a deeper one
// goes through os.Root, which checks every directory on the way.
func (r *Root) Stamp(rel string) (size, mtime, ctime int64, ino uint64, ok bool) {
	if strings.ContainsRune(rel, '/') || rel == "" || rel == "." || rel == ".." {
		return r.stampSlow(rel)
	}
	fd, err := r.fd()
	if err != nil {
		return r.stampSlow(rel)
	}
	var st unix.Stat_t
	if lstatRaw(fd, rel, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, 0, 0, 0, false
	}
	return st.Size, st.Mtim.Nano(), st.Ctim.Nano(), st.Ino, true
}
