package memgit

import (
	"os"
	"time"

	"github.com/memdir/memdir/atomicfile"
)

// Temporary files memgit writes into the object store (a loose object
// before it is renamed into place, a pack and its index before they are)
// are named as atomicfile names its temp files, with the writer's PID,
// so that atomicfile.CleanTemps, which owns that rule, removes the ones
// a killed memdir left: once their writer is provably gone, or once they
// are tempMaxAge old. git's own temporary files (tmp_obj_..., tmp_pack_...)
// are never touched; git gc prunes them.

// tempMaxAge is how old a memdir temporary file must be before it is
// removed without proof that its writer is gone.
const tempMaxAge = 24 * time.Hour

// createTemp creates a temporary file in dir whose name says it is
// memdir's, for kind ("obj", "pack", "idx"), and which process wrote it.
func createTemp(dir, kind string) (*os.File, error) {
	return os.CreateTemp(dir, tempPattern(kind))
}

// tempPattern is the os.CreateTemp pattern of a temporary file of kind.
func tempPattern(kind string) string { return atomicfile.TempPattern(kind) }

// cleanTemps removes the temporary files memdir processes that are gone
// left in the object store, and returns how many it removed.
func (r *Repo) cleanTemps(now time.Time) int {
	return len(atomicfile.CleanTemps(r.objectsDir(), []string{".", "pack"}, tempMaxAge, now))
}
