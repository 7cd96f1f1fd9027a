//go:build !linux

package memgit

import (
	"io/fs"
	"os"
	"path/filepath"
)

// lstatAt is os.Lstat where fstatat is not at hand.
func lstatAt(dir *os.File, name string) (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(dir.Name(), name))
}
