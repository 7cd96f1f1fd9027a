package main

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/memdir"
)

// repaired says on stderr what a lock repaired after a memdir that was
// killed while it held it. openWorkspace passes it to every directory it
// opens, so each command that takes the lock reports a repair.
func (a *app) repaired(rec *memdir.Recovery) {
	var parts []string
	if n := len(rec.Temps); n > 0 {
		parts = append(parts, fmt.Sprintf("removed %d temp file(s)", n))
	}
	if rec.Reindex.IndexChanged() {
		parts = append(parts, "index: "+rec.Reindex.Summary())
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing was left to repair")
	}
	a.warn("a memdir process was killed while it held the lock (%s): %s", rec.Holder, strings.Join(parts, "; "))
}
