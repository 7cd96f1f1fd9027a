package memsync

import (
	"slices"
	"strings"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

// final is a file as the memory directory will hold it after the sync.
func (p *projectSync) final(n string) ([]byte, bool) {
	if d, ok := p.writes[n]; ok {
		return d, d != nil
	}
	d, ok := p.local[n]
	return d, ok
}

// reconcileIndex makes MEMORY.md match the topics the merge leaves: a
// topic the sync wrote or pushed that no index lists (one side changed it
// while the other removed it) gets its line back, and a line whose topic
// is gone goes. Entries in an overflow index count as listed; topics the
// sync did not touch, and private ones (which memdir leaves out of the
// index), are left as they are.
func (p *projectSync) reconcileIndex() error {
	touched := map[string]bool{}
	for n, d := range p.writes {
		touched[n] = d != nil
	}
	for path, d := range p.push {
		if d != nil {
			touched[strings.TrimPrefix(path, p.folder+"/")] = true
		}
	}
	listed := map[string]bool{}
	files := p.finalNames()
	for _, n := range files {
		if isIndex(n) {
			data, _ := p.final(n)
			for _, e := range index.Parse(data).Entries() {
				listed[e.File] = true
			}
		}
	}
	data, _ := p.final(memdir.IndexFile)
	ix := index.Parse(data)
	changed := false
	present := map[string]bool{}
	for _, n := range files {
		present[n] = true
		if isIndex(n) || listed[n] || !touched[n] || p.excluded[n] || isConflictCopy(n) {
			continue
		}
		body, _ := p.final(n)
		if t, err := memdir.ParseTopic(n, body); err == nil && !t.Private {
			ix.Upsert(index.Entry{Title: t.Name, File: n, Hook: t.Description})
			changed = true
		}
	}
	if dropEntries(ix, func(f string) bool { return !present[f] && Synced(f) && !isIndex(f) }) {
		changed = true
	}
	if !changed {
		return nil
	}
	merged := ix.Bytes()
	p.toLocal(memdir.IndexFile, merged, true)
	if p.held[memdir.IndexFile] {
		// MEMORY.md itself is held back here: the remote keeps its own.
		return nil
	}
	pushed := merged
	if len(p.excluded) > 0 {
		var err error
		if pushed, err = p.offered(memdir.IndexFile, merged); err != nil {
			return err
		}
	}
	key := p.folder + "/" + memdir.IndexFile
	if blobID(pushed) == p.remote[key] {
		delete(p.push, key)
	} else {
		p.toRemote(memdir.IndexFile, pushed, true)
	}
	return nil
}

// finalNames lists the synced files the memory directory will hold.
func (p *projectSync) finalNames() []string {
	var out []string
	for n := range p.local {
		if _, ok := p.final(n); ok {
			out = append(out, n)
		}
	}
	for n, d := range p.writes {
		if _, had := p.local[n]; !had && d != nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
