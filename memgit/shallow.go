package memgit

import (
	"bufio"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A shallow clone (git clone --depth) lists in <common dir>/shallow the
// commits whose parents it does not have. git treats them as roots, and
// so does memgit: history stops there instead of failing on an object
// that is not in the clone, and callers can say the history is shallow.

// shallow reads the shallow file once.
func (r *Repo) shallow() map[plumbing.Hash]bool {
	r.shallowOnce.Do(func() {
		f, err := os.Open(filepath.Join(r.common, "shallow"))
		if err != nil {
			return
		}
		defer f.Close()
		r.shallowSet = map[plumbing.Hash]bool{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if line := sc.Text(); len(line) == 40 && isHex(line) {
				r.shallowSet[plumbing.NewHash(line)] = true
			}
		}
	})
	return r.shallowSet
}

// Shallow reports whether the repository is a shallow clone, whose
// history stops before its first commit.
func (r *Repo) Shallow() bool { return len(r.shallow()) > 0 }

// parents lists a commit's parents as this clone has them: none for a
// commit at the shallow boundary.
func (r *Repo) parents(c *object.Commit) []plumbing.Hash {
	if r.shallow()[c.Hash] {
		return nil
	}
	return c.ParentHashes
}

// shallowError says a revision reaches past the shallow boundary.
func shallowError(c *object.Commit) error {
	return &RefusedError{Reason: "this clone's history is shallow: the parents of " + c.Hash.String()[:7] +
		" are not here (git fetch --unshallow fetches them)"}
}
