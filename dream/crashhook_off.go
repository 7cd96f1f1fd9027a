//go:build !crashtest

package dream

// CrashTest reports whether this binary carries the crash tests' hook
// (built with -tags crashtest): this one does not.
const CrashTest = false

// crashHook is the crash tests' hook, absent from this build: a file
// operation is only a file operation.
type crashHook struct{}

func newCrashHook() *crashHook { return nil }

func (*crashHook) step() {}

func (*crashHook) at(string) {}
