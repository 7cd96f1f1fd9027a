package memdir

import (
	"os"
	"path/filepath"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
)

// placeEntry puts a topic's line where it belongs: updated in place in the
// overflow index of its type when `index --fit` moved it there, else
// upserted into MEMORY.md (or removed from both, for a private topic). It
// returns the overflow file it wrote, if any.
func (d *Dir) placeEntry(ix *index.Index, t *Topic) (string, error) {
	name := index.OverflowFile(t.Type)
	path := filepath.Join(d.Path, name)
	data, err := os.ReadFile(path)
	if err != nil {
		// No overflow index for this type: the usual case.
		if t.Private {
			ix.Remove(t.File)
		} else {
			ix.Upsert(entryOf(t))
		}
		return "", nil
	}
	over := index.Parse(data)
	if _, ok := over.Lookup(t.File); !ok {
		if t.Private {
			ix.Remove(t.File)
		} else {
			ix.Upsert(entryOf(t))
		}
		return "", nil
	}
	ix.Remove(t.File)
	if t.Private {
		over.Remove(t.File)
	} else {
		over.Upsert(entryOf(t))
	}
	out := over.Bytes()
	if string(out) == string(data) {
		return "", nil
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return "", writeErr(d.Path, err)
	}
	return name, nil
}

// dropEntry removes a topic's line from MEMORY.md and from any overflow
// index, returning the overflow files it rewrote.
func (d *Dir) dropEntry(ix *index.Index, file string) ([]string, error) {
	ix.Remove(file)
	var wrote []string
	for _, name := range d.indexPaths()[1:] {
		path := filepath.Join(d.Path, name)
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		over := index.Parse(data)
		if !over.Remove(file) {
			continue
		}
		if err := atomicfile.WriteFile(path, over.Bytes(), 0o644); err != nil {
			return wrote, writeErr(d.Path, err)
		}
		wrote = append(wrote, name)
	}
	return wrote, nil
}
