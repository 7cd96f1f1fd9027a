package memgit

import (
	"compress/zlib"
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

// Objects are stored as go-git's object storage stores them: loose
// objects, zlib-compressed, written under a temporary name (named as
// memdir's, see temps.go) and renamed into place, read-only. They are
// compressed at zlib's best speed, as git compresses loose objects
// (core.looseCompression defaults to 1); go-git's writer uses zlib's
// default level, which spent a fifth of a `memdir commit` at 10,000
// topics deflating the root tree. Only the hash is worked out here
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
	if err := r.writeLoose(h, t, size, parts); err != nil {
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

// writeLoose writes the loose object h, of type t and content parts
// (size bytes), through the storage's filesystem as go-git's object
// writer does, at zlib's best speed.
func (r *Repo) writeLoose(h plumbing.Hash, t plumbing.ObjectType, size int, parts [][]byte) (err error) {
	gfs := r.st.Filesystem()
	f, err := gfs.TempFile(gfs.Join("objects", "pack"), "tmp_obj_")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = gfs.Remove(f.Name())
		}
	}()
	hook("object-temp")
	zw, err := zlib.NewWriterLevel(f, zlib.BestSpeed)
	if err != nil {
		return err
	}
	if _, err = io.WriteString(zw, t.String()+" "+strconv.Itoa(size)+"\x00"); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err = zw.Write(p); err != nil {
			return err
		}
	}
	if err = zw.Close(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	hex := h.String()
	file := gfs.Join("objects", hex[:2], hex[2:])
	if _, lerr := gfs.Lstat(file); lerr == nil {
		return gfs.Remove(f.Name()) // written meanwhile: objects are content-addressed
	}
	if err = gfs.Rename(f.Name(), file); err != nil {
		return err
	}
	// Read-only, as git leaves its loose objects.
	_ = os.Chmod(filepath.Join(r.objectsDir(), hex[:2], hex[2:]), 0o444)
	return nil
}
