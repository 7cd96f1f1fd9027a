//go:build linux && (arm64 || riscv64 || loong64)

package memgit

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// lstatAt is lstat of name in the directory dir is open on (by its
// full path), resolving one path component instead of every one.
func lstatAt(dir *os.File, name string) (fs.FileInfo, error) {
	fi := &statInfo{name: name}
	if err := syscall.Fstatat(int(dir.Fd()), name, &fi.st, atSymlinkNoFollow); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: filepath.Join(dir.Name(), name), Err: err}
	}
	return fi, nil
}
