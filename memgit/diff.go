package memgit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// DiffOptions choose what Diff compares.
type DiffOptions struct {
	// From is the old side's revision; "" means HEAD.
	From string
	// Change, when set, shows what that commit changed: its first
	// parent against it. From and To are then ignored.
	Change string
	// To is the new side's revision; "" means the files on disk.
	To string
	// File limits the diff to one memory path; "" means all of memory.
	File string
}

// side is one side of a diff: its files and how to read them.
type side struct {
	files map[string]blob
	read  func(path string, b blob) ([]byte, error)
}

// Diff writes a unified diff of memory, with paths relative to the memory
// directory, and returns how many files differ.
func (r *Repo) Diff(w io.Writer, opts DiffOptions) (int, error) {
	from, to, err := r.diffSides(opts)
	if err != nil {
		return 0, err
	}
	var names []string
	for p, b := range to.files {
		if old, ok := from.files[p]; !ok || old != b {
			names = append(names, p)
		}
	}
	for p := range from.files {
		if _, ok := to.files[p]; !ok {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	var fps []fdiff.FilePatch
	for _, p := range names {
		if opts.File != "" && p != opts.File {
			continue
		}
		fp, err := filePatchOf(p, from, to)
		if err != nil {
			return 0, err
		}
		fps = append(fps, fp)
	}
	if len(fps) == 0 {
		return 0, nil
	}
	if err := fdiff.NewUnifiedEncoder(w, fdiff.DefaultContextLines).Encode(patch(fps)); err != nil {
		return 0, fmt.Errorf("write diff: %w", err)
	}
	return len(fps), nil
}

// diffSides loads the two sides DiffOptions name.
func (r *Repo) diffSides(opts DiffOptions) (side, side, error) {
	if opts.Change != "" {
		c, err := r.commit(opts.Change)
		if err != nil {
			return side{}, side{}, err
		}
		to, err := r.revSide(c.Hash)
		if err != nil || len(r.parents(c)) == 0 {
			return side{files: map[string]blob{}}, to, err
		}
		from, err := r.revSide(c.ParentHashes[0])
		return from, to, err
	}
	fromRev := opts.From
	if fromRev == "" {
		fromRev = "HEAD"
	}
	c, err := r.commit(fromRev)
	if err != nil {
		return side{}, side{}, err
	}
	from, err := r.revSide(c.Hash)
	if err != nil {
		return side{}, side{}, err
	}
	if opts.To != "" {
		tc, err := r.commit(opts.To)
		if err != nil {
			return side{}, side{}, err
		}
		to, err := r.revSide(tc.Hash)
		return from, to, err
	}
	disk, err := r.diskFiles(from.files)
	if err != nil {
		return side{}, side{}, err
	}
	return from, side{files: disk, read: r.readDisk}, nil
}

func (r *Repo) revSide(commit plumbing.Hash) (side, error) {
	files, err := r.filesAt(commit)
	return side{files: files, read: r.readBlob}, err
}

func (r *Repo) readBlob(_ string, b blob) ([]byte, error) {
	bl, err := object.GetBlob(r.st, b.hash)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", b.hash, err)
	}
	rd, err := bl.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", b.hash, err)
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

func (r *Repo) readDisk(p string, b blob) ([]byte, error) {
	abs := filepath.Join(r.memDir, filepath.FromSlash(p))
	if b.mode == filemode.Symlink {
		t, err := os.Readlink(abs)
		return []byte(t), err
	}
	return os.ReadFile(abs)
}

// filePatchOf compares one path across the two sides.
func filePatchOf(p string, from, to side) (fdiff.FilePatch, error) {
	fp := &filePatch{}
	var old, cur []byte
	if b, ok := from.files[p]; ok {
		fp.from = file{path: p, b: b}
		data, err := from.read(p, b)
		if err != nil {
			return nil, err
		}
		old = data
	}
	if b, ok := to.files[p]; ok {
		fp.to = file{path: p, b: b}
		data, err := to.read(p, b)
		if err != nil {
			return nil, err
		}
		cur = data
	}
	if bytes.IndexByte(old, 0) >= 0 || bytes.IndexByte(cur, 0) >= 0 {
		fp.binary = true
		return fp, nil
	}
	for _, d := range diff.Do(string(old), string(cur)) {
		op := fdiff.Equal
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = fdiff.Add
		case diffmatchpatch.DiffDelete:
			op = fdiff.Delete
		}
		fp.chunks = append(fp.chunks, chunk{content: d.Text, op: op})
	}
	return fp, nil
}

// The types below implement go-git's diff.Patch for the unified encoder.

type patch []fdiff.FilePatch

func (p patch) FilePatches() []fdiff.FilePatch { return p }
func (p patch) Message() string                { return "" }

type filePatch struct {
	from, to fdiff.File // nil interfaces for an added or removed file
	binary   bool
	chunks   []fdiff.Chunk
}

func (fp *filePatch) IsBinary() bool                  { return fp.binary }
func (fp *filePatch) Files() (fdiff.File, fdiff.File) { return fp.from, fp.to }
func (fp *filePatch) Chunks() []fdiff.Chunk           { return fp.chunks }

type file struct {
	path string
	b    blob
}

func (f file) Hash() plumbing.Hash     { return f.b.hash }
func (f file) Mode() filemode.FileMode { return f.b.mode }
func (f file) Path() string            { return f.path }

type chunk struct {
	content string
	op      fdiff.Operation
}

func (c chunk) Content() string       { return c.content }
func (c chunk) Type() fdiff.Operation { return c.op }
