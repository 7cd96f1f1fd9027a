//go:build !unix

package proc

// exists cannot be known without a signal: every process may be running,
// so nothing is ever provably gone by its PID alone.
func exists(int) bool { return true }
