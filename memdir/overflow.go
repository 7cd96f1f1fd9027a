package memdir

import (
	"slices"

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
			return "", nil
		}
		if e := ix.KeepTitle(entryOf(t)); !ix.WouldOverflow(e, index.DefaultCaps) {
			ix.Upsert(e)
			return "", nil
		}
		return d.fitFor(ix, t)
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

// fitFor places t's line when putting it into MEMORY.md would leave
// entries past a load cap: the index is fitted as `index --fit` fits it
// (index.Fit over every topic, t's new line included), the overflow
// indexes are written, and the fitted MEMORY.md is left in ix for the
// caller to write. It returns the overflow index of t's type when that was
// written, else another one written, else "".
//
// The overflow indexes are written first and keep every entry they listed,
// so a crash before MEMORY.md is written lists an entry twice at worst,
// never nowhere; an entry Fit would move from an overflow index back up to
// MEMORY.md therefore stays where it was (index --fit moves it).
func (d *Dir) fitFor(ix *index.Index, t *Topic) (string, error) {
	metas, _, err := d.metas()
	if err != nil {
		return "", err
	}
	main, overflow := index.Fit(ix, metas, index.DefaultCaps)
	var wrote []string
	for _, ty := range typesx.Types {
		name := index.OverflowFile(ty)
		f, err := d.readStamped(name)
		if err != nil {
			return "", err
		}
		if !f.stamp.Exists && len(overflow[ty]) == 0 {
			continue
		}
		listed := append(slices.Clone(overflow[ty]), stillListed(index.Parse(f.data), overflow[ty])...)
		for _, e := range listed {
			main.Remove(e.File)
		}
		if len(listed) == 0 {
			continue
		}
		main.Upsert(index.Pointer(ty, len(listed)))
		out := index.RenderOverflow(ty, listed)
		if string(out) == string(f.data) {
			continue
		}
		if err := d.writeFile(name, out, &f.stamp); err != nil {
			return "", err
		}
		wrote = append(wrote, name)
	}
	*ix = *main
	if len(wrote) == 0 {
		return "", nil
	}
	if own := index.OverflowFile(t.Type); slices.Contains(wrote, own) {
		return own, nil
	}
	return wrote[0], nil
}
