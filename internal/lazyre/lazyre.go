// Package lazyre compiles a regular expression on first use, so that a
// package-level pattern costs nothing at start-up in the commands that
// never use it: every memdir command starts the whole binary, and each
// package initialised touches pages a short command pays for.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles pattern the first time it is
// called (panicking, as regexp.MustCompile does, on a bad pattern) and
// returns the same *regexp.Regexp on every call, from any goroutine.
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
