package memgit

import (
	"bufio"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Objects are written and the trees along changed paths read and written
// here rather than through go-git's object layer: its loose-object writer
// compresses at zlib's default level through a collision-detecting SHA-1
// and its tree codec allocates per entry, which together made a commit in
// a 10,000-file memory directory several times dearer than in a small
// one. The formats are git's own: a loose object is
// zlib("<type> <size>\x00<content>") at objects/xx/yyyy..., and a tree is
// a run of "<octal mode> <name>\x00<20-byte hash>" (edited as bytes, see
// treesplice.go).

// objectsDir is where loose objects go.
func (r *Repo) objectsDir() string { return filepath.Join(r.common, "objects") }

// storeObject writes a loose object, whose content is parts one after
// the other, unless it exists, and returns its hash.
func (r *Repo) storeObject(t plumbing.ObjectType, parts ...[]byte) (plumbing.Hash, error) {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	header := t.String() + " " + strconv.Itoa(size) + "\x00"
	sum := sha1.New()
	io.WriteString(sum, header)
	for _, p := range parts {
		sum.Write(p)
	}
	var h plumbing.Hash
	copy(h[:], sum.Sum(nil))
	hex := h.String()
	if _, err := os.Lstat(filepath.Join(r.objectsDir(), hex[:2], hex[2:])); err == nil {
		return h, nil
	}
	// A packed copy is not looked for: go-git's lookup stats every
	// objects/xx directory, and a loose duplicate of a packed object is
	// harmless (git gc drops it).
	f, err := createTemp(r.objectsDir(), "obj")
	if err != nil {
		return h, fmt.Errorf("store %s: %w", t, err)
	}
	defer os.Remove(f.Name())
	hook("object-temp")
	if size >= bigObject {
		err = writeStored(f, header, parts)
	} else {
		err = writeDeflated(f, header, parts)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return h, fmt.Errorf("store %s %s: %w", t, hex, err)
	}
	return h, r.placeObject(f.Name(), h)
}

// writeStored writes a big object uncompressed.
func writeStored(w io.Writer, header string, parts [][]byte) error {
	zw := newStoredWriter(w)
	io.WriteString(zw, header)
	for _, p := range parts {
		zw.Write(p)
	}
	return zw.Close()
}

// deflaters holds zlib writers for reuse: each allocates about a
// megabyte of tables, which made a commit of many files allocate a
// megabyte per file.
var deflaters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(io.Discard, zlib.BestSpeed)
	return zw
}}

// writeDeflated writes a small object compressed at zlib's fastest
// level.
func writeDeflated(w io.Writer, header string, parts [][]byte) error {
	bw := bufio.NewWriterSize(w, 16<<10)
	zw := deflaters.Get().(*zlib.Writer)
	defer deflaters.Put(zw)
	zw.Reset(bw)
	_, err := io.WriteString(zw, header)
	for _, p := range parts {
		if err == nil {
			_, err = zw.Write(p)
		}
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	return err
}

// bigObject is the size from which objects are stored without
// compression (see loose.go): a 10,000-entry tree or an index far over
// its caps is read and rewritten on every commit, and coding it would
// cost more than the rest of the commit, so that a commit would no longer
// cost about the same at 100 topics and at 10,000. Packing (gc.go, or
// git gc in a project) compresses them, with deltas.
const bigObject = 64 << 10

// readObject returns an object's content: read straight from its loose
// file when there is one (go-git's reader re-hashes it with a slow
// collision-detecting SHA-1), else through go-git (packs).
func (r *Repo) readObject(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	hex := h.String()
	if f, err := os.Open(filepath.Join(r.objectsDir(), hex[:2], hex[2:])); err == nil {
		defer f.Close()
		zr, err := zlib.NewReader(bufio.NewReaderSize(f, 64<<10))
		if err != nil {
			return nil, fmt.Errorf("read %s %s: %w", t, hex, err)
		}
		data, err := readLoose(zr, t)
		if err != nil {
			return nil, fmt.Errorf("read %s %s: %w", t, hex, err)
		}
		return data, nil
	}
	obj, err := r.st.EncodedObject(t, h)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, hex, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, hex, err)
	}
	defer rd.Close()
	return io.ReadAll(rd)
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
