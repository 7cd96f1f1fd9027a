//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package progress

import "golang.org/x/sys/unix"

const ioctlReadTermios = unix.TIOCGETA
