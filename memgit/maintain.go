package memgit

import "path/filepath"

// maintain keeps the repository healthy after a commit: it removes the
// temporary files killed memdir processes left in the object store.
// Callers hold memdir's lock.
func (r *Repo) maintain() error {
	now := r.now()
	cleanTemps(r.objectsDir(), now)
	cleanTemps(filepath.Join(r.objectsDir(), "pack"), now)
	return nil
}
