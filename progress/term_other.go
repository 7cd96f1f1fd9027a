//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package progress

import "os"

// IsTerminal reports whether f is a terminal: never, where memdir cannot
// ask.
func IsTerminal(*os.File) bool { return false }
