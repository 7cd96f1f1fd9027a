//go:build !crashtest

package main

// crashTest reports whether this binary carries the crash tests' hooks
// (go build -tags crashtest); the shipped binary does not.
const crashTest = false

// crashHook is the crash tests' hook, built only with -tags crashtest.
func (a *app) crashHook() func(string) { return nil }
