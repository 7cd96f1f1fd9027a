package memdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
)

// metas reads every topic for the index operations; private topics and
// conflict copies stay out of the index.
func (d *Dir) metas() ([]index.Meta, []Problem, error) {
	topics, problems, err := d.List()
	if err != nil {
		return nil, nil, err
	}
	var metas []index.Meta
	for _, t := range topics {
		if _, copy := ConflictCopy(t.File); t.Private || copy {
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
