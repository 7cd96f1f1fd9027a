package diskfull

import (
	"strconv"
	"syscall"
)

var errNoSpace error = syscall.ENOSPC

func mount(dir string, size int) error {
	return syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size))
}

func unmount(dir string) error { return syscall.Unmount(dir, 0) }
