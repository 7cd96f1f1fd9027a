package memgit

import (
	"fmt"
	"time"
)

// maintain keeps the repository healthy after a commit: it removes the
// temporary files killed memdir processes left in the object store, and
// packs loose objects when gc.go's policy says so. Callers hold memdir's
// lock. The commit is made by then: a failure here says so.
func (r *Repo) maintain(commit string) error {
	r.cleanTemps(time.Now())
	written := r.written
	r.written = 0
	if _, err := r.maybePack(written); err != nil {
		return fmt.Errorf("committed %s, but packing the repository's loose objects failed: %w", commit, err)
	}
	return nil
}
