//go:build !unix

package main

import "errors"

// dreamIfOverdue starts no background dream where processes cannot be
// detached the unix way; the schedule (memdir daemon) still dreams.
func (a *app) dreamIfOverdue(*workspace) string { return "" }

// startDetached starts nothing where processes cannot be detached the
// unix way; `memdir daemon` and cron still sync and dream.
func startDetached(...string) error { return errors.ErrUnsupported }
