package memdir

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/secrets"
)

// Replace validates new content for a topic file (after an edit), writes
// it with a fresh modified stamp when the content changed, and brings its
// index line in step, and says what it wrote.
//
// base, when not nil, is the content the new one was made from (the copy
// an editor opened): if the file no longer holds it, another process
// changed or removed the topic meanwhile, and Replace refuses rather than
// lose that change.
func (d *Dir) Replace(file string, base, data []byte) (Replaced, error) {
	return d.replace(file, base, data, "edit "+file)
}

// Restore brings a topic back as a version from history, a removed topic
// included: as Replace without a base, and the change says where the
// version came from ("restore FILE from FROM"). Every way into memory
// passes the one scanner: a version that holds what looks like a
// credential (it may predate the scanner, or come from a hand commit) is
// refused with an *InputError and nothing is written.
func (d *Dir) Restore(file string, data []byte, from string) (Replaced, error) {
	if found := secrets.Scan(string(data)); len(found) > 0 {
		return Replaced{}, &InputError{Msg: fmt.Sprintf("%s as at %s holds what looks like %s (line %d): secrets never go into memory; nothing was restored", file, from, WithArticle(found[0].Kind), found[0].Line)}
	}
	return d.replace(file, nil, data, "restore "+file+" from "+from)
}

// replace is Replace with the change's message.
func (d *Dir) replace(file string, base, data []byte, message string) (Replaced, error) {
	t, err := ParseTopic(file, data)
	if err != nil {
		return Replaced{}, &InputError{Msg: err.Error(), Err: err}
	}
	if err := validateTopic(t); err != nil {
		return Replaced{}, err
	}
	lk, err := d.lock("edit")
	if err != nil {
		return Replaced{}, err
	}
	defer lk.Release()
	old, st, readErr := atomicfile.ReadStamped(d.Path, file)
	if readErr != nil && !errors.Is(readErr, fs.ErrNotExist) {
		return Replaced{}, readErr
	}
	conflict := &InputError{Msg: fmt.Sprintf("%s was changed or removed by someone else while you edited it", file), Err: ErrConflict}
	if base != nil && (readErr != nil || string(old) != string(base)) {
		return Replaced{}, conflict
	}
	changed := string(old) != string(data)
	if changed {
		t.Modified = d.now()
		if t.Created.IsZero() {
			t.Created = t.Modified
		}
		if err := d.writeTopic(t, st); errors.Is(err, atomicfile.ErrChanged) {
			return Replaced{}, conflict
		} else if err != nil {
			return Replaced{}, err
		}
	}
	var over string
	var ixChanged bool
	err = retry(func() error {
		ix, oldIx, err := d.loadIndex()
		if err != nil {
			return err
		}
		if over, err = d.placeEntry(ix, t); err != nil {
			return err
		}
		newIx, err := d.writeIndex(ix, oldIx)
		ixChanged = ixChanged || err == nil && string(newIx) != string(oldIx.data)
		return err
	})
	if err != nil {
		return Replaced{}, err
	}
	res := Replaced{Topic: t, Changed: changed, IndexUpdated: ixChanged || over != ""}
	if changed || res.IndexUpdated {
		paths := []string{file, IndexFile}
		if over != "" {
			paths = append(paths, over)
		}
		err = d.Changed(Change{Paths: paths, Message: message})
	}
	return res, err
}

// Replaced says what Replace did.
type Replaced struct {
	Topic *Topic // the topic as written
	// Changed is true when the topic file's content changed.
	Changed bool
	// IndexUpdated is true when the topic's line in MEMORY.md or an
	// overflow index was rewritten.
	IndexUpdated bool
}
