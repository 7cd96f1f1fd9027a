package memgit

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

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
// a run of "<octal mode> <name>\x00<20-byte hash>".

// objectsDir is where loose objects go.
func (r *Repo) objectsDir() string { return filepath.Join(r.common, "objects") }

// storeObject writes a loose object unless it exists, and returns its
// hash.
func (r *Repo) storeObject(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	header := t.String() + " " + strconv.Itoa(len(data)) + "\x00"
	sum := sha1.New()
	io.WriteString(sum, header)
	sum.Write(data)
	var h plumbing.Hash
	copy(h[:], sum.Sum(nil))
	hex := h.String()
	dir := filepath.Join(r.objectsDir(), hex[:2])
	final := filepath.Join(dir, hex[2:])
	if _, err := os.Lstat(final); err == nil {
		return h, nil
	}
	// A packed copy is not looked for: go-git's lookup stats every
	// objects/xx directory, and a loose duplicate of a packed object is
	// harmless (git gc drops it).
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return h, fmt.Errorf("store %s: %w", t, err)
	}
	f, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return h, fmt.Errorf("store %s: %w", t, err)
	}
	defer os.Remove(f.Name())
	bw := bufio.NewWriterSize(f, 64<<10)
	zw, _ := zlib.NewWriterLevel(bw, compressionLevel(len(data)))
	_, err = io.WriteString(zw, header)
	if err == nil {
		_, err = zw.Write(data)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		_ = os.Chmod(f.Name(), 0o444)
		err = os.Rename(f.Name(), final)
	}
	if err != nil {
		return h, fmt.Errorf("store %s %s: %w", t, hex, err)
	}
	return h, nil
}

// bigObject is the size from which objects are stored without
// compression: a 10,000-entry tree or an index far over its caps is read
// and rewritten on every commit, and coding it would cost more than the
// rest of the commit, so that a commit would no longer cost about the same
// at 100 topics and at 10,000. git gc repacks them, with deltas, anyway.
const bigObject = 64 << 10

func compressionLevel(size int) int {
	if size >= bigObject {
		return zlib.NoCompression
	}
	return zlib.BestSpeed
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// readTree reads a tree object's entries.
func (r *Repo) readTree(h plumbing.Hash) ([]treeEntry, error) {
	data, err := r.readObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	entries, err := parseTree(data)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	return entries, nil
}

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
		data, err := io.ReadAll(zr)
		if err != nil {
			return nil, fmt.Errorf("read %s %s: %w", t, hex, err)
		}
		header, body, ok := bytes.Cut(data, []byte{0})
		if !ok || !bytes.HasPrefix(header, []byte(t.String()+" ")) {
			return nil, fmt.Errorf("read %s %s: not a %s object", t, hex, t)
		}
		return body, nil
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

var errBadTree = errors.New("malformed tree object")

// parseTree splits a tree object's content into entries.
func parseTree(data []byte) ([]treeEntry, error) {
	entries := make([]treeEntry, 0, bytes.Count(data, []byte{0}))
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+1+20 > len(data) {
			return nil, errBadTree
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, errBadTree
		}
		e := treeEntry{name: string(data[sp+1 : nul]), mode: filemode.FileMode(mode)}
		copy(e.hash[:], data[nul+1:nul+21])
		entries = append(entries, e)
		data = data[nul+21:]
	}
	return entries, nil
}

// compareEntries orders tree entries as git does: by name, a directory
// as if its name ended in "/".
func compareEntries(a, b treeEntry) int {
	n := min(len(a.name), len(b.name))
	if c := strings.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	next := func(e treeEntry) int {
		switch {
		case len(e.name) > n:
			return int(e.name[n])
		case e.mode == filemode.Dir:
			return '/'
		}
		return 0
	}
	return next(a) - next(b)
}

// storeTree writes a tree object with its entries in git's order (a
// directory sorts as if its name ended in "/").
func (r *Repo) storeTree(entries []treeEntry) (plumbing.Hash, error) {
	slices.SortFunc(entries, compareEntries)
	size := 0
	for _, e := range entries {
		size += len(e.name) + 28
	}
	buf := make([]byte, 0, size)
	for _, e := range entries {
		buf = strconv.AppendUint(buf, uint64(e.mode), 8)
		buf = append(buf, ' ')
		buf = append(buf, e.name...)
		buf = append(buf, 0)
		buf = append(buf, e.hash[:]...)
	}
	return r.storeObject(plumbing.TreeObject, buf)
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
		mode := filemode.Regular
		if fi.Mode()&0o111 != 0 {
			mode = filemode.Executable
		}
		data, err := os.ReadFile(abs)
		return data, mode, err
	}
	return nil, 0, fmt.Errorf("%s: %w", abs, errNotRegular)
}
