//go:build !(linux && (amd64 || arm64))

package search

// stampZ is stamp for a NUL-terminated name.
func (s *statDir) stampZ(nameZ []byte) (size, mtime, ctime int64, ino uint64, ok bool) {
	return s.stamp(string(nameZ[:max(len(nameZ)-1, 0)]))
}
