package memgit

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// blob is a file's content address and mode.
type blob struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// Changes are the memory paths whose files differ from HEAD, relative to
// the memory directory and sorted.
type Changes struct {
	Added, Modified, Removed []string
}

// Paths lists every changed path.
func (c Changes) Paths() []string {
	out := append(append(append([]string{}, c.Added...), c.Modified...), c.Removed...)
	sort.Strings(out)
	return out
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool { return len(c.Added)+len(c.Modified)+len(c.Removed) == 0 }

// Summary says what changed in a few words, for a commit message:
// "add a.md, rm b.md" for up to three paths, else counts.
func (c Changes) Summary() string {
	var parts []string
	if len(c.Paths()) <= 3 {
		for _, g := range []struct {
			verb  string
			paths []string
		}{{"add", c.Added}, {"edit", c.Modified}, {"rm", c.Removed}} {
			for _, p := range g.paths {
				parts = append(parts, g.verb+" "+p)
			}
		}
		return strings.Join(parts, ", ")
	}
	for _, g := range []struct {
		n    int
		word string
	}{{len(c.Added), "added"}, {len(c.Modified), "edited"}, {len(c.Removed), "removed"}} {
		if g.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", g.n, g.word))
		}
	}
	return strings.Join(parts, ", ")
}

// Status compares the memory files on disk with HEAD. Private state,
// nested repositories and untracked files the ignore rules exclude are
// left out.
func (r *Repo) Status() (Changes, error) {
	var c Changes
	headFiles := map[string]blob{}
	if _, h, err := r.head(); err == nil && !h.IsZero() {
		if headFiles, err = r.filesAt(h); err != nil {
			return c, err
		}
	}
	disk, err := r.diskFiles(headFiles)
	if err != nil {
		return c, err
	}
	for p, b := range disk {
		old, ok := headFiles[p]
		switch {
		case !ok:
			c.Added = append(c.Added, p)
		case old != b:
			c.Modified = append(c.Modified, p)
		}
	}
	for p := range headFiles {
		if _, ok := disk[p]; !ok {
			c.Removed = append(c.Removed, p)
		}
	}
	sort.Strings(c.Added)
	sort.Strings(c.Modified)
	sort.Strings(c.Removed)
	return c, nil
}

// CommitAll commits every memory path that differs from HEAD (see
// Status). msg "" makes the message from the changes. It returns the
// changes it committed.
func (r *Repo) CommitAll(msg string) (Result, Changes, error) {
	c, err := r.Status()
	if err != nil || c.Empty() {
		return Result{}, c, err
	}
	if msg == "" {
		msg = c.Summary()
	}
	res, err := r.Commit(c.Paths(), msg)
	return res, c, err
}

// filesAt lists the memory files at a commit, relative to the memory
// directory. A memory directory that did not exist then has none. The
// trees are read as bytes (see treesplice.go): go-git's tree walker
// allocates an object per entry.
func (r *Repo) filesAt(commit plumbing.Hash) (map[string]blob, error) {
	c, err := object.GetCommit(r.st, commit)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", commit, err)
	}
	data, err := r.readObject(plumbing.TreeObject, c.TreeHash)
	for _, part := range strings.Split(r.prefix, "/") {
		if err != nil || part == "" {
			break
		}
		rec, ok, ferr := findTreeEntry(data, part)
		if ferr != nil || !ok || !rec.dir() {
			if ferr == nil {
				return map[string]blob{}, nil // no memory directory then
			}
			err = ferr
			break
		}
		data, err = r.readObject(plumbing.TreeObject, plumbing.Hash(rec.hash))
	}
	out := make(map[string]blob, len(data)/treeRecordGuess)
	if err == nil {
		err = r.walkTree(data, "", out)
	}
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", commit, err)
	}
	return out, nil
}

// treeRecordGuess is about the bytes a tree record of a topic file
// takes, to size maps up front.
const treeRecordGuess = 48

// walkTree adds the files of a tree's content, recursively, to out under
// dir. Submodules and private state are left out.
func (r *Repo) walkTree(data []byte, dir string, out map[string]blob) error {
	for off := 0; off < len(data); {
		rec, err := nextTreeRecord(data[off:])
		if err != nil {
			return err
		}
		off += rec.size
		name := dir + string(rec.name)
		switch {
		case rec.dir():
			sub, err := r.readObject(plumbing.TreeObject, plumbing.Hash(rec.hash))
			if err == nil {
				err = r.walkTree(sub, name+"/", out)
			}
			if err != nil {
				return err
			}
		case rec.mode != filemode.Submodule && !Private(name):
			out[name] = blob{hash: plumbing.Hash(rec.hash), mode: rec.mode}
		}
	}
	return nil
}

// hashFile is the blob a file would be stored as; mode 0 for what is
// neither a file nor a symlink.
func hashFile(abs string, fi fs.FileInfo) (blob, error) {
	mode := fileMode(fi)
	if mode == 0 {
		return blob{}, nil
	}
	data, _, err := readWorkFile(abs, fi)
	if err != nil {
		return blob{}, err
	}
	return blob{hash: plumbing.ComputeHash(plumbing.BlobObject, data), mode: mode}, nil
}
