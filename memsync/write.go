package memsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
)

// newCache is the stat cache of the directory as this sync leaves it at
// commit: the stats taken before reading, with the blob ids read, for
// every file the sync did not write (it reads those again next time,
// rather than trust a stat taken after its own write).
//
// Held maps a file to the base of its next merge where that is not
// main's version: a file held back here keeps the version it was held
// from; a file the sync could not write (changed since it was read)
// keeps what the merge read. A pending cache, saved before the writes,
// records that base for every file about to be written, so that a sync
// killed among its writes leaves each file either written or merged
// again from what was read.
func (p *projectSync) newCache(url, commit string, pending bool) *statCache {
	if p.empty {
		return &statCache{URL: url, Dir: p.dir, Files: map[string]fileStat{}, Commit: commit}
	}
	c := &statCache{URL: url, Dir: p.dir, Token: p.token, Commit: commit, Files: map[string]fileStat{}, Skipped: p.res.Skipped, Held: map[string]string{}}
	for n, oid := range p.heldBase {
		c.Held[n] = oid
	}
	for n, st := range p.scan {
		if _, wrote := p.writes[n]; !wrote && p.oid[n] != "" {
			st.OID = p.oid[n]
			c.Files[n] = st
		}
	}
	// The files it wrote, and those too large to read, are there too,
	// with a stat that never matches: their absence next time is a
	// removal made here.
	for n, data := range p.writes {
		if data != nil {
			c.Files[n] = fileStat{Mtime: -1}
		} else if _, had := p.local[n]; had && pending {
			c.Files[n] = fileStat{Mtime: -1}
		}
		if pending {
			c.Held[n] = p.oid[n]
		}
	}
	for _, h := range p.incoming {
		c.Held[h.File] = p.oid[h.File]
		if _, had := p.local[h.File]; !had {
			delete(c.Held, h.File)
		}
	}
	for _, n := range p.changed {
		c.Held[n] = p.oid[n]
		c.Files[n] = fileStat{Mtime: -1}
	}
	for _, n := range p.oversized {
		c.Files[n] = fileStat{Mtime: -1}
	}
	return c
}

// baseBlobs adds to blobs the content of every file the sync is about
// to write, as it read it, where neither main nor the remote holds that
// version: the pending cache names it as the file's base, and the next
// merge reads it from memdir's repository.
func (p *projectSync) baseBlobs(blobs map[string][]byte) {
	for n := range p.writes {
		oid := p.oid[n]
		key := p.folder + "/" + n
		if oid == "" || p.local[n] == nil || oid == p.base[key] || oid == p.remote[key] {
			continue
		}
		blobs[oid] = p.local[n]
	}
}

// write applies the decided changes to the memory directory: every
// content was computed before the first write, and each write is a
// compare-and-swap against what the merge read. A file changed since
// (an agent that writes without memdir's lock) is left as it is and
// listed in changed: the next round merges it again from what was read.
func (p *projectSync) write() error {
	names := make([]string, 0, len(p.writes))
	for n := range p.writes {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) > 0 {
		if err := os.MkdirAll(p.dir, 0o755); err != nil {
			return err
		}
	}
	for _, n := range names {
		p.progress.step()
		data := p.writes[n]
		expect, err := p.expect(n)
		if err == nil {
			if data == nil {
				err = removeIf(p.dir, n, expect)
			} else {
				err = atomicfile.WriteInside(p.dir, n, data, atomicfile.Options{Perm: 0o644, Expect: &expect})
			}
		}
		if errors.Is(err, atomicfile.ErrChanged) {
			p.changed = append(p.changed, n)
			continue
		}
		if err != nil {
			return fmt.Errorf("sync %s: %w", n, err)
		}
		p.res.Pulled = append(p.res.Pulled, n)
	}
	return nil
}

// expect is what a file must still be for the sync to replace it: the
// stamp of what was read, nothing for a file that was not there, and for
// a file the stat cache vouched for (not read), a stamp taken now of the
// content the cache knew.
func (p *projectSync) expect(n string) (atomicfile.Stamp, error) {
	if st, ok := p.stamps[n]; ok {
		return st, nil
	}
	if _, ok := p.local[n]; !ok {
		return atomicfile.Stamp{}, nil
	}
	data, st, err := atomicfile.ReadStamped(p.dir, n)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st, fmt.Errorf("%s %w", n, atomicfile.ErrChanged)
	case err != nil:
		return st, err
	case blobID(data) != p.oid[n]:
		return st, fmt.Errorf("%s %w", n, atomicfile.ErrChanged)
	}
	return st, nil
}

// removeIf removes the file n of dir when it is still what expect
// stamped (an error wrapping atomicfile.ErrChanged when it is not). The
// check and the removal are two steps: a write landing in the
// microseconds between them is lost with the file, the window every
// compare-and-swap without a shared lock leaves.
func removeIf(dir, n string, expect atomicfile.Stamp) error {
	_, st, err := atomicfile.ReadStamped(dir, n)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Same(expect) {
		return fmt.Errorf("%s %w", n, atomicfile.ErrChanged)
	}
	if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return atomicfile.SyncDir(dir)
}

// listPushed records, in the result, the files the remote gets.
func (p *projectSync) listPushed() {
	for path := range p.push {
		p.res.Pushed = append(p.res.Pushed, strings.TrimPrefix(path, p.folder+"/"))
	}
	slices.Sort(p.res.Pushed)
}
