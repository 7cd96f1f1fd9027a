package memdir

import (
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
)

// placeEntry puts a topic's line where it belongs: updated in place in the
// overflow index of its type when `index --fit` moved it there, else
// upserted into MEMORY.md (or removed from both, for a private topic). It
// returns the overflow file it wrote, if any. An overflow index changed
// since it was read is not overwritten (atomicfile.ErrChanged).
func (d *Dir) placeEntry(ix *index.Index, t *Topic) (string, error) {
	return d.placeEntryIn(ix, t, nil)
}

// overflowIndex is a type's overflow index as read under the lock: the
// file and its parse.
type overflowIndex struct {
	name string
	f    stamped
	ix   *index.Index
}

// readOverflowOf reads and parses the overflow index of type t.
func (d *Dir) readOverflowOf(t typesx.Type) (*overflowIndex, error) {
	name := index.OverflowFile(t)
	f, err := d.readStamped(name)
	if err != nil {
		return nil, err
	}
	return &overflowIndex{name: name, f: f, ix: index.Parse(f.data)}, nil
}

// placeEntryIn is placeEntry given the overflow index already read, when
// read is the one of t's type (an add reads it once for the duplicate
// check and for this); nil reads it.
func (d *Dir) placeEntryIn(ix *index.Index, t *Topic, read *overflowIndex) (string, error) {
	name := index.OverflowFile(t.Type)
	if read == nil || read.name != name {
		var err error
		if read, err = d.readOverflowOf(t.Type); err != nil {
			return "", err
		}
	}
	f, over := read.f, read.ix
	if _, ok := over.Lookup(t.File); !f.stamp.Exists || !ok {
		// No overflow index for this type, or the topic is not in it:
		// the usual case.
		if t.Private {
			ix.Remove(t.File)
		} else {
			ix.Upsert(ix.KeepTitle(entryOf(t)))
		}
		return "", nil
	}
	ix.Remove(t.File)
	if t.Private {
		over.Remove(t.File)
	} else {
		over.Upsert(over.KeepTitle(entryOf(t)))
	}
	out := over.Bytes()
	if string(out) == string(f.data) {
		return "", nil
	}
	if err := d.writeFile(name, out, &f.stamp); err != nil {
		return "", err
	}
	return name, nil
}

// droppedFrom is an index file a topic's line was dropped from, with its
// content before.
type droppedFrom struct {
	name string
	old  []byte
}

// dropEntry removes a topic's line from MEMORY.md (in ix, which the
// caller writes) and from any overflow index (written here, each only if
// unchanged since read), returning the overflow files it rewrote.
func (d *Dir) dropEntry(ix *index.Index, file string) ([]droppedFrom, error) {
	ix.Remove(file)
	var wrote []droppedFrom
	for _, name := range d.indexPaths()[1:] {
		f, err := d.readStamped(name)
		if err != nil || !f.stamp.Exists {
			continue
		}
		over := index.Parse(f.data)
		if !over.Remove(file) {
			continue
		}
		if err := d.writeFile(name, over.Bytes(), &f.stamp); err != nil {
			d.undoDrops(wrote)
			return nil, err
		}
		wrote = append(wrote, droppedFrom{name: name, old: f.data})
	}
	return wrote, nil
}

// undoDrops writes back the index files a failed removal had rewritten,
// so the topic stays listed where it was.
func (d *Dir) undoDrops(drops []droppedFrom) {
	for _, dr := range drops {
		_ = d.writeFile(dr.name, dr.old, nil)
	}
}
