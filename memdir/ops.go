package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
	"golang.org/x/text/unicode/norm"
)

// AmbiguousError reports a name that matches several topics.
type AmbiguousError struct {
	Name  string
	Files []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q matches %d topics (%s): name the file instead", e.Name, len(e.Files), strings.Join(e.Files, ", "))
}

// Find resolves what a person typed (a file name, a topic name or a slug)
// to one topic file's base name.
func (d *Dir) Find(ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.ContainsAny(ref, "/\\\x00") || strings.Contains(ref, "..") {
		return "", &InputError{Msg: fmt.Sprintf("%q is not a topic: give its name or its file name, e.g. feedback_testing_policy.md", ref)}
	}
	ref = norm.NFC.String(ref)
	if strings.HasSuffix(ref, ".md") && IsTopicFile(ref) {
		_, err := atomicfile.StatInside(d.Path, ref)
		if err == nil {
			return ref, nil
		}
		if errors.Is(err, atomicfile.ErrOutside) {
			return "", err
		}
	}
	if !d.Exists() {
		return "", &InputError{Msg: fmt.Sprintf("no memory yet at %s: `memdir add` or `memdir init` creates it", d.Path), Err: ErrNotFound}
	}
	files, err := d.TopicFiles()
	if err != nil {
		return "", err
	}
	if f := strings.TrimSuffix(ref, ".md") + ".md"; contains(files, f) {
		return f, nil
	}
	slug := Slugify(ref)
	var hits []string
	for _, f := range files {
		if _, rest, ok := strings.Cut(f, "_"); ok && rest == slug+".md" {
			hits = append(hits, f)
		}
	}
	if len(hits) == 0 {
		hits = d.findByName(files, ref)
	}
	switch len(hits) {
	case 0:
		return "", &InputError{Msg: fmt.Sprintf("no topic named %q: `memdir list` shows the topics", ref), Err: ErrNotFound}
	case 1:
		return hits[0], nil
	}
	return "", &InputError{Msg: (&AmbiguousError{Name: ref, Files: hits}).Error()}
}

// findByName scans topic names, for a topic whose file name does not
// follow from its name (written by hand or renamed).
func (d *Dir) findByName(files []string, name string) []string {
	var hits []string
	for _, f := range files {
		if t, err := d.Read(f); err == nil && strings.EqualFold(t.Name, name) {
			hits = append(hits, f)
		}
	}
	return hits
}

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

// Replace validates new content for a topic file (after an edit), writes
// it with a fresh modified stamp when the content changed, and brings its
// index line in step, and says what it wrote.
//
// base, when not nil, is the content the new one was made from (the copy
// an editor opened): if the file no longer holds it, another process
// changed or removed the topic meanwhile, and Replace refuses rather than
// lose that change.
func (d *Dir) Replace(file string, base, data []byte) (Replaced, error) {
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
		err = d.Changed(Change{Paths: paths, Message: "edit " + file})
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

// metas reads every topic for the index operations; private topics stay
// out of the index.
func (d *Dir) metas() ([]index.Meta, []Problem, error) {
	topics, problems, err := d.List()
	if err != nil {
		return nil, nil, err
	}
	var metas []index.Meta
	for _, t := range topics {
		if t.Private {
			continue
		}
		metas = append(metas, index.Meta{Entry: entryOf(t), Type: t.Type, Modified: t.Modified})
	}
	return metas, problems, nil
}

// rewriteIndex runs fn, which rewrites the index, under the lock with the
// topics' metadata and the index as it is on disk. Topic files that could
// not be parsed are returned as problems.
//
// MEMORY.md is written only if it is still as read; when someone changed
// it meanwhile, everything is read again and fn runs again.
func (d *Dir) rewriteIndex(what string, fn func(ix *index.Index, old stamped, metas []index.Meta) error) ([]Problem, error) {
	lk, err := d.lock(what)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	var problems []Problem
	err = retry(func() error {
		ix, old, err := d.loadIndex()
		if err != nil {
			return err
		}
		var metas []index.Meta
		if metas, problems, err = d.metas(); err != nil {
			return err
		}
		return fn(ix, old, metas)
	})
	return problems, err
}

// Rebuild rewrites MEMORY.md from the topic files: one line per topic,
// hooks from descriptions, hand-written lines kept. An index whose entries
// would then go past a load cap is fitted instead, as Fit does: an agent
// would not see those entries, and the ones that do not fit under 70% of
// the caps move to overflow indexes it can read. Topic files that could
// not be parsed are returned as problems and left out.
func (d *Dir) Rebuild() ([]Problem, error) {
	return d.rewriteIndex("index --rebuild", func(ix *index.Index, old stamped, metas []index.Meta) error {
		rebuilt := index.Rebuild(ix, metas)
		data := rebuilt.Bytes()
		// Over a cap with every entry loaded (hand-written lines past
		// it), fitting would only hide the entries behind pointers.
		if p := index.MeasureIndex(rebuilt, data, index.DefaultCaps); p.OverCap && len(p.Invisible) > 0 {
			return d.fit(ix, old, metas, "index --rebuild")
		}
		// Every topic gets its line in MEMORY.md again, so the overflow
		// indexes of an earlier --fit go, after the new index is written.
		before := d.indexPaths()
		if _, err := d.writeIndex(rebuilt, old); err != nil {
			return err
		}
		if err := d.removeOverflow(); err != nil {
			return err
		}
		if string(data) == string(old.data) && len(before) == 1 {
			return nil
		}
		return d.Changed(Change{Paths: before, Message: "index --rebuild"})
	})
}

// Fit rewrites MEMORY.md to stay under 70% of both load caps, moving the
// entries that do not fit into overflow index files. No topic file is
// touched.
func (d *Dir) Fit() ([]Problem, error) {
	return d.rewriteIndex("index --fit", func(ix *index.Index, old stamped, metas []index.Meta) error {
		return d.fit(ix, old, metas, "index --fit")
	})
}

// fit writes the fitted index of ix and metas: MEMORY.md, as read (old),
// and the overflow indexes; what names the change. A file whose bytes
// would not change is not written, and with none written nothing changed.
func (d *Dir) fit(ix *index.Index, old stamped, metas []index.Meta, what string) error {
	main, overflow := index.Fit(ix, metas, index.DefaultCaps)
	before := d.indexPaths()
	// Three steps, so that a crash between any two leaves an entry listed
	// twice at worst, never in no index: each overflow index gets its new
	// entries and keeps its old ones (some may move up to MEMORY.md); then
	// MEMORY.md; then each overflow index gets exactly its new entries,
	// and those left with none go.
	type pending struct {
		name  string
		final []byte // nil: the index goes
		now   []byte // on disk after the first step
	}
	var later []pending
	wrote := false
	for _, t := range typesx.Types {
		name := index.OverflowFile(t)
		f, err := d.readStamped(name)
		if err != nil {
			return err
		}
		if !f.stamp.Exists && len(overflow[t]) == 0 {
			continue
		}
		p := pending{name: name, now: f.data}
		if len(overflow[t]) > 0 {
			p.final = index.RenderOverflow(t, overflow[t])
			both := append(slices.Clone(overflow[t]), stillListed(index.Parse(f.data), overflow[t])...)
			if first := index.RenderOverflow(t, both); string(first) != string(f.data) {
				if err := d.writeFile(name, first, nil); err != nil {
					return err
				}
				p.now, wrote = first, true
			}
		}
		later = append(later, p)
	}
	data, err := d.writeIndex(main, old)
	if err != nil {
		return err
	}
	wrote = wrote || string(data) != string(old.data)
	for _, p := range later {
		switch {
		case p.final == nil:
			if err := os.Remove(filepath.Join(d.Path, p.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return writeErr(d.Path, err)
			}
			wrote = true
		case string(p.final) != string(p.now):
			if err := d.writeFile(p.name, p.final, nil); err != nil {
				return err
			}
			wrote = true
		}
	}
	if !wrote {
		return nil
	}
	return d.Changed(Change{Paths: dedupe(append(before, d.indexPaths()[1:]...)), Message: what})
}

// stillListed returns the entries of an overflow index as read that its
// new entries (next) do not list.
func stillListed(read *index.Index, next []index.Entry) []index.Entry {
	listed := make(map[string]bool, len(next))
	for _, e := range next {
		listed[e.File] = true
	}
	var out []index.Entry
	for _, e := range read.Entries() {
		if !listed[e.File] {
			out = append(out, e)
			listed[e.File] = true
		}
	}
	return out
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// removeOverflow removes every overflow index.
func (d *Dir) removeOverflow() error {
	for _, name := range d.indexPaths()[1:] {
		if err := os.Remove(filepath.Join(d.Path, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return writeErr(d.Path, err)
		}
	}
	return nil
}
