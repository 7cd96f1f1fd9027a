//go:build !linux || !(amd64 || arm64 || riscv64 || loong64)

package memgit

import (
	"io/fs"
	"os"
)

// lstatAt is os.Lstat where fstatat is not at hand.
func lstatAt(_ *os.File, abs, _ string) (fs.FileInfo, error) { return os.Lstat(abs) }
