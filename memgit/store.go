package memgit

import (
	"errors"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// objectStore is go-git's storage with one change for packing: go-git
// reads the list of packs once, so an object that was loose when it
// looked and has been packed since (by memgit in another process, or by
// git gc) would seem missing. On a miss the packs are listed again and
// the object looked up once more, as git itself does.
type objectStore struct{ *filesystem.Storage }

// EncodedObject returns an object, looking again after a miss.
func (s objectStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, err := s.Storage.EncodedObject(t, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.Reindex()
		obj, err = s.Storage.EncodedObject(t, h)
	}
	return obj, err
}

// HashesWithPrefix lists the objects whose hashes start with prefix,
// looking again when there is none.
func (s objectStore) HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error) {
	hs, err := s.Storage.HashesWithPrefix(prefix)
	if err == nil && len(hs) == 0 {
		s.Reindex()
		hs, err = s.Storage.HashesWithPrefix(prefix)
	}
	return hs, err
}

// tempNamer is the git dir's filesystem as go-git's storage sees it,
// with one change: the temporary files go-git creates (tmp_obj_,
// tmp_pack_) are named as memdir's, with the writer's PID (temps.go), so
// that the ones a killed memdir leaves are provably its own and are
// cleaned up, while git's own are never touched.
type tempNamer struct{ billy.Filesystem }

// TempFile creates a temporary file named for its kind and this process.
func (f tempNamer) TempFile(dir, prefix string) (billy.File, error) {
	kind := strings.Trim(strings.TrimPrefix(prefix, "tmp_"), "_")
	return f.Filesystem.TempFile(dir, tempPattern(kind))
}
