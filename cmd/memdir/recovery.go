package main

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/memdir"
)

// reportRecovery says on stderr what the command's lock repaired after a
// memdir that was killed while it held it.
func (a *app) reportRecovery(d *memdir.Dir) {
	rec := d.LastRecovery
	if rec == nil {
		return
	}
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
