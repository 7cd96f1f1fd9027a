//go:build linux && (arm64 || riscv64 || loong64)

package memgit

import (
	"io/fs"
	"os"
	"syscall"
)

// lstatAt is lstat of name in the directory dir is open on (abs is
// its full path), resolving one path component instead of every one.
func lstatAt(dir *os.File, abs, name string) (fs.FileInfo, error) {
	fi := &statInfo{name: name}
	if err := syscall.Fstatat(int(dir.Fd()), name, &fi.st, atSymlinkNoFollow); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: abs, Err: err}
	}
	return fi, nil
}
