package memgit

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Objects are stored through go-git's object storage: loose objects,
// zlib-compressed, written under a temporary name (named as memdir's, see
// temps.go) and renamed into place. Only the hash is worked out here
// first, with the standard library's SHA-1 (go-git's collision-detecting
// one costs about three times as much), so that an object the store
// already holds, loose or packed, is not compressed and written again.

// objectsDir is where loose objects go.
func (r *Repo) objectsDir() string { return filepath.Join(r.common, "objects") }

// storeObject writes a loose object, whose content is parts one after
// the other, unless the store holds it, and returns its hash.
func (r *Repo) storeObject(t plumbing.ObjectType, parts ...[]byte) (plumbing.Hash, error) {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	h := objectHash(t, size, parts)
	if r.st.HasEncodedObject(h) == nil {
		return h, nil
	}
	w, header, err := r.st.LazyWriter()
	if err != nil {
		return h, fmt.Errorf("store %s %s: %w", t, h, err)
	}
	hook("object-temp")
	err = header(t, int64(size))
	for _, p := range parts {
		if err == nil {
			_, err = w.Write(p)
		}
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return h, fmt.Errorf("store %s %s: %w", t, h, err)
	}
	r.written += int64(size)
	return h, nil
}

// objectHash is the hash of an object of type t whose content, size
// bytes, is parts one after the other.
func objectHash(t plumbing.ObjectType, size int, parts [][]byte) plumbing.Hash {
	sum := sha1.New()
	io.WriteString(sum, t.String()+" "+strconv.Itoa(size)+"\x00")
	for _, p := range parts {
		sum.Write(p)
	}
	return plumbing.Hash(sum.Sum(nil))
}

// readObject returns an object's content, loose or packed.
func (r *Repo) readObject(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	obj, err := r.st.EncodedObject(t, h)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	defer rd.Close()
	data := make([]byte, obj.Size())
	if _, err := io.ReadFull(rd, data); err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	return data, nil
}

// errNotRegular is returned for a path that is neither a file nor a
// symlink.
var errNotRegular = errors.New("not a regular file")

// readWorkFile reads a file or a symlink's target, with its git mode.
func readWorkFile(abs string, fi fs.FileInfo) ([]byte, filemode.FileMode, error) {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(abs)
		return []byte(target), filemode.Symlink, err
	case fi.Mode().IsRegular():
		data, err := os.ReadFile(abs)
		return data, regularMode(fi), err
	}
	return nil, 0, fmt.Errorf("%s: %w", abs, errNotRegular)
}

// regularMode is a regular file's git mode.
func regularMode(fi fs.FileInfo) filemode.FileMode {
	if fi.Mode()&0o111 != 0 {
		return filemode.Executable
	}
	return filemode.Regular
}
