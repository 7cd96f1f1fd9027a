//go:build !linux

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// LstatAt is os.Lstat of name in the directory dir is open on, where
// fstatat is not at hand.
func LstatAt(dir *os.File, name string) (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(dir.Name(), name))
}
