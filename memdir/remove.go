package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memdir/memdir/atomicfile"
)

// Remove deletes a topic file and its index line. The line goes first:
// when the index cannot be written (a full disk), the topic stays, still
// listed, and when the file cannot be removed, the line comes back. The
// removal and the index update succeed or fail together.
func (d *Dir) Remove(file string) error {
	_, err := d.RemoveTopic(file)
	return err
}

// Removed says what a removal did.
type Removed struct {
	File string
	// IndexUpdated is true when MEMORY.md or an overflow index lost the
	// topic's line (false for a topic that was not listed).
	IndexUpdated bool
}

// RemoveTopic is Remove, saying whether an index line went.
func (d *Dir) RemoveTopic(file string) (Removed, error) {
	res := Removed{File: file}
	lk, err := d.lock("rm")
	if err != nil {
		return res, err
	}
	defer lk.Release()
	var over []string
	err = retry(func() error {
		var err error
		over, res.IndexUpdated, err = d.removeOnce(file)
		return err
	})
	if err != nil {
		return res, err
	}
	res.IndexUpdated = res.IndexUpdated || len(over) > 0
	return res, d.Changed(Change{Paths: append([]string{file, IndexFile}, over...), Message: "rm " + file})
}

// removeOnce is one attempt of Remove; it returns the overflow indexes it
// rewrote and whether MEMORY.md changed.
func (d *Dir) removeOnce(file string) ([]string, bool, error) {
	ix, old, err := d.loadIndex()
	if err != nil {
		return nil, false, err
	}
	drops, err := d.dropEntry(ix, file)
	if err != nil {
		return nil, false, err
	}
	data, err := d.writeIndex(ix, old)
	if err != nil {
		d.undoDrops(drops)
		return nil, false, err
	}
	ixChanged := string(data) != string(old.data)
	if err := d.keepInTrash(file); err != nil {
		d.undoDrops(append(drops, droppedFrom{name: IndexFile, old: old.data}))
		return nil, false, err
	}
	if err := os.Remove(filepath.Join(d.Path, file)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.undoDrops(append(drops, droppedFrom{name: IndexFile, old: old.data}))
		return nil, false, writeErr(d.Path, fmt.Errorf("remove %s: %w", file, err))
	}
	if err := atomicfile.SyncDir(d.Path); err != nil {
		return nil, false, err
	}
	var names []string
	for _, dr := range drops {
		names = append(names, dr.name)
	}
	return names, ixChanged, nil
}
