//go:build !unix

package main

// dreamIfOverdue starts no background dream where processes cannot be
// detached the unix way; the schedule (memdir daemon) still dreams.
func (a *app) dreamIfOverdue(*workspace) string { return "" }
