package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/memdir/memdir/atomicfile"
)

// TrashDir is where a removed topic's last version is kept, inside the
// state directory (so never committed or synced): `memdir restore NAME`
// brings it back. Deleting it forgets only what rm kept for undoing.
var TrashDir = filepath.Join(StateDir, "trash")

// keepInTrash copies the topic file into the trash before it is removed,
// replacing an older copy of the same file. A file already gone keeps
// nothing.
func (d *Dir) keepInTrash(file string) error {
	data, err := atomicfile.ReadInside(d.Path, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := atomicfile.MkdirAllInside(d.Path, TrashDir, 0o700); err != nil {
		return writeErr(d.Path, err)
	}
	return atomicfile.WriteInside(d.Path, filepath.Join(TrashDir, file), data, atomicfile.Options{Perm: 0o600})
}

// Trashed returns the topic file the trash keeps for ref (a file name, a
// topic name or its slug) and its content.
func (d *Dir) Trashed(ref string) (string, []byte, error) {
	ref = norm.NFC.String(strings.TrimSpace(ref))
	entries, err := os.ReadDir(filepath.Join(d.Path, TrashDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", nil, err
	}
	slug := Slugify(ref)
	var hits []string
	for _, e := range entries {
		f := e.Name()
		if !e.Type().IsRegular() || !IsTopicFile(f) {
			continue
		}
		_, rest, _ := strings.Cut(f, "_")
		switch {
		case f == ref, f == ref+".md", rest == slug+".md":
			hits = append(hits, f)
		default:
			data, err := atomicfile.ReadInside(d.Path, filepath.Join(TrashDir, f))
			if t, perr := ParseTopic(f, data); err == nil && perr == nil && strings.EqualFold(t.Name, ref) {
				hits = append(hits, f)
			}
		}
	}
	switch len(hits) {
	case 0:
		return "", nil, &InputError{Msg: fmt.Sprintf("no removed topic named %q is kept in the trash: with memory in git, `memdir history %s` and `memdir restore %s --at REV`", ref, ref, ref), Err: ErrNotFound}
	case 1:
	default:
		return "", nil, &InputError{Msg: (&AmbiguousError{Name: ref, Files: hits}).Error()}
	}
	data, err := atomicfile.ReadInside(d.Path, filepath.Join(TrashDir, hits[0]))
	return hits[0], data, err
}

// DropTrashed removes the trash's copy of file, once it is restored.
func (d *Dir) DropTrashed(file string) error {
	err := os.Remove(filepath.Join(d.Path, TrashDir, filepath.Base(file)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// TrashedFiles lists the topic files the trash keeps.
func (d *Dir) TrashedFiles() []string {
	entries, _ := os.ReadDir(filepath.Join(d.Path, TrashDir))
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && IsTopicFile(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}
