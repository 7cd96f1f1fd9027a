//go:build !linux

package atomicfile

// Stamp returns what a freshness check compares of the regular file rel
// inside the root: its size, modification and change times (nanoseconds)
// and inode where the system gives them. ok is false when rel is gone, is
// not a regular file or cannot be reached inside the root (a symlink is
// never followed).
func (r *Root) Stamp(rel string) (size, mtime, ctime int64, ino uint64, ok bool) {
	return r.stampSlow(rel)
}
