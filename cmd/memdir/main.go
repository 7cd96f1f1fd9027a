// Command memdir keeps an AI coding agent's memory as plain markdown files:
// typed topic files, a MEMORY.md index loaded at session start, daily logs
// distilled by a nightly dream, and the session-start context for any
// agent. Run `memdir --help` for the commands.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// Most commands live for milliseconds: collecting garbage less
		// often saves up to a fifth of their time. The daemon and the
		// watcher, which run for days, set it back to the default.
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
