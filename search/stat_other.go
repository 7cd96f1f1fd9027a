//go:build !linux

package search

import (
	"os"
	"path/filepath"
)

// statDir stamps files of one directory with os.Lstat: size and
// modification time alone tell a change here.
type statDir struct{ path string }

func openStatDir(dir string) *statDir { return &statDir{path: dir} }

func (s *statDir) close() {}

func (s *statDir) stamp(name string) (size, mtime, ctime int64, ino uint64, ok bool) {
	fi, err := os.Lstat(filepath.Join(s.path, filepath.FromSlash(name)))
	if err != nil || !fi.Mode().IsRegular() {
		return 0, 0, 0, 0, false
	}
	return fi.Size(), fi.ModTime().UnixNano(), 0, 0, true
}

// read returns a file's content; nil when it cannot be read.
func (s *statDir) read(name string, _ int64) []byte {
	data, err := os.ReadFile(filepath.Join(s.path, filepath.FromSlash(name)))
	if err != nil {
		return nil
	}
	return data
}
