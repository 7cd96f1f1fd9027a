package memsync

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/untrusted"
)

// ProjectResult is what one sync did to one project's memory.
type ProjectResult struct {
	Identity string `json:"identity"`
	Dir      string `json:"dir"`
	// Pulled are the files the sync wrote or removed in the memory
	// directory; Pushed those it changed in the remote.
	Pulled []string `json:"pulled,omitempty"`
	Pushed []string `json:"pushed,omitempty"`
	// Conflicts are the copies kept of topics both sides changed.
	Conflicts []string  `json:"conflicts,omitempty"`
	Skipped   []Skipped `json:"skipped,omitempty"`
	// Held are the files the remote sent that the sync held back: they
	// hold what looks like a credential.
	Held []HeldFile `json:"held,omitempty"`
}

// Skipped is a file sync kept on this machine, and why.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// side is one version of a file: its blob id ("" when absent) and,
// once read, its content.
type side struct {
	oid  string
	data []byte
}

// projectSync merges one project's folder of the remote with its memory
// directory.
type projectSync struct {
	carries      func(name string) bool // the files this sync carries
	dir, folder  string
	base, remote map[string]string // path -> blob id, whole trees
	cat          *catFile
	merger       *merger
	res          ProjectResult
	local        map[string][]byte // synced files on disk; nil content when not read
	oid          map[string]string // blob ids of the local files
	scan         map[string]fileStat
	cache        *statCache
	excluded     map[string]bool   // local files that never leave the machine
	held         map[string]bool   // excluded files held back: a credential, a file that does not parse
	oversized    []string          // local files too large to read, held back
	heldBase     map[string]string // held files: the base they will merge from
	offers       map[string]side   // each index as offered to the remote (localSide)
	writes       map[string][]byte // to the memory dir; nil removes
	push         map[string][]byte // to the remote, by path; nil removes
	stamps       map[string]atomicfile.Stamp
	changed      []string // writes refused: the file changed since it was read
	empty        bool     // nothing here, nothing there: only a cache to save
	token, url   string
	repo         string
	incoming     []HeldFile // what the remote sent and the sync held back
	heldBefore   []HeldFile // as the last sync recorded them
	progress     *counter   // counts the files merged, pushed and written
}

// readLocal reads the synced files of the memory directory, except those
// the stat cache knows to hold what the remote holds already: those are
// listed with their blob id and no content (no merge needs it).
func (p *projectSync) readLocal() error {
	p.local = map[string][]byte{}
	p.oid = map[string]string{}
	if len(p.scan) == 0 {
		return nil
	}
	p.stamps = map[string]atomicfile.Stamp{}
	for n, st := range p.scan {
		if oid := p.cache.known(n, st); oid != "" && !isIndex(n) && oid == p.remote[p.folder+"/"+n] {
			p.local[n], p.oid[n] = nil, oid
			continue
		}
		// Stamped: the write that replaces it is a compare-and-swap
		// against exactly what was read here.
		data, stamp, err := atomicfile.ReadStamped(p.dir, n)
		if errors.Is(err, fs.ErrNotExist) {
			delete(p.scan, n) // removed since the scan
			continue
		}
		if errors.Is(err, untrusted.ErrTooLarge) {
			// Neither read nor synced: the remote keeps its own version.
			delete(p.scan, n)
			p.oversized = append(p.oversized, n)
			continue
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", n, err)
		}
		p.local[n], p.oid[n], p.stamps[n] = data, blobID(data), stamp
	}
	return nil
}

// keepLocal reports why a local file that is not private must not be
// pushed: a credential, or a topic memdir cannot read (it could hide a
// private flag); "" when it may go.
func keepLocal(name string, data []byte) string {
	if !isIndex(name) {
		if _, err := memdir.ParseTopic(name, data); err != nil {
			return "does not parse as a topic file: fix it, then sync again"
		}
	}
	if f := secrets.Scan(string(data)); len(f) > 0 {
		return fmt.Sprintf("holds what looks like a %s (line %d): remove it, then sync again", f[0].Kind, f[0].Line)
	}
	return ""
}

// isPrivate reports whether a topic file is marked private.
func isPrivate(name string, data []byte) bool {
	if isIndex(name) {
		return false
	}
	t, err := memdir.ParseTopic(name, data)
	return err == nil && t.Private
}

// names lists every file name of the project in the three versions.
func (p *projectSync) names() []string {
	set := map[string]bool{}
	for n := range p.local {
		set[n] = true
	}
	prefix := p.folder + "/"
	for _, tree := range []map[string]string{p.base, p.remote} {
		for path := range tree {
			if n, ok := strings.CutPrefix(path, prefix); ok && p.carries(n) {
				set[n] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// mergeAll decides every file, reading contents only where they differ.
func (p *projectSync) mergeAll() error {
	p.excluded, p.held, p.offers = map[string]bool{}, map[string]bool{}, map[string]side{}
	for _, n := range p.oversized {
		p.excluded[n], p.held[n] = true, true
		p.res.Skipped = append(p.res.Skipped, Skipped{File: n, Reason: fmt.Sprintf("larger than %d bytes, the most a memory file holds: remove or shorten it", untrusted.MaxMemory)})
	}
	p.writes = map[string][]byte{}
	p.push = map[string][]byte{}
	names := p.names()
	p.progress.add(len(names))
	// Local files that differ from the remote's are checked before any
	// decision, so an index can leave out the entries of those kept here.
	// Topics first: an index is scanned without the entries of topics
	// kept here (an entry's hook may quote the credential).
	for _, indexes := range []bool{false, true} {
		for _, n := range names {
			if _, ok := p.local[n]; !ok || isIndex(n) != indexes {
				continue
			}
			l, err := p.localSide(n) // an index without the entries of topics kept here
			if err != nil {
				return err
			}
			if l.oid == p.remote[p.folder+"/"+n] {
				continue
			}
			data := l.data
			if isPrivate(n, data) {
				p.excluded[n] = true
			} else if why := keepLocal(n, data); why != "" {
				p.excluded[n], p.held[n] = true, true
				p.res.Skipped = append(p.res.Skipped, Skipped{File: n, Reason: why})
			}
		}
	}
	p.heldBase = map[string]string{}
	for n := range p.held {
		p.heldBase[n] = p.baseOID(n)
	}
	for _, n := range names {
		err := p.mergeFile(n)
		p.progress.step()
		if errors.Is(err, untrusted.ErrTooLarge) {
			// Left where it is, on both sides: one oversized file does
			// not stop every other file's sync.
			p.res.Skipped = append(p.res.Skipped, Skipped{File: n, Reason: err.Error() + ": left as it is on both sides; remove it there or here"})
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	if err := p.reconcileIndex(); err != nil {
		return err
	}
	p.progress.add(len(p.push) + len(p.writes))
	return nil
}

// localSide is what this machine offers the remote for a file: nothing
// for a file kept here, an index without the entries of files kept here:
// a private topic's entry is left out (the remote loses it with the
// topic), a held-back topic's is the remote's (the remote keeps both).
func (p *projectSync) localSide(n string) (side, error) {
	data, ok := p.local[n]
	if !ok || p.excluded[n] {
		return side{}, nil
	}
	if !isIndex(n) {
		return side{oid: p.oid[n], data: data}, nil
	}
	// An index is offered once: the check before the merge and the merge
	// itself ask for it, and each may read the base's and remote's index.
	if s, ok := p.offers[n]; ok {
		return s, nil
	}
	data, added, err := p.withUnseen(n, data)
	if err != nil {
		return side{}, err
	}
	s := side{oid: p.oid[n], data: data}
	if len(p.excluded) > 0 {
		if data, err = p.offered(n, data); err != nil {
			return side{}, err
		}
		s = side{oid: blobID(data), data: data}
	} else if added {
		s = side{oid: blobID(data), data: data}
	}
	p.offers[n] = s
	return s, nil
}

// withUnseen is the index n as data holds it here, with the base's
// entries for topics this directory never held (a directory made again,
// a new clone) put back: a line it never had is no line it removed.
func (p *projectSync) withUnseen(n string, data []byte) ([]byte, bool, error) {
	key := p.folder + "/" + n
	if p.base[key] == "" || p.base[key] == p.oid[n] {
		return data, false, nil
	}
	b, err := p.gitSide(p.base, n)
	if err != nil {
		return nil, false, err
	}
	here := index.Parse(data)
	before := missingLines(here, index.Parse(b.data), func(l index.Line) bool {
		if l.Entry == nil || p.cache.had(l.Entry.File) {
			return false
		}
		_, held := p.local[l.Entry.File]
		return !held
	})
	if len(before) == 0 {
		return data, false, nil
	}
	withLines(here, before)
	return here.Bytes(), true, nil
}

// offered is the index n, as data holds it here, the way this machine
// offers it to the remote: a private topic's entry left out (the remote
// loses it with the topic), a held-back topic's entry the remote's own
// (the remote keeps both).
func (p *projectSync) offered(n string, data []byte) ([]byte, error) {
	var theirs map[string]index.Entry
	if len(p.held) > 0 {
		r, err := p.gitSide(p.remote, n)
		if err != nil {
			return nil, err
		}
		theirs = byFile(r.data)
	}
	ix := index.Parse(data)
	for f := range p.excluded {
		if e, ok := theirs[f]; ok && p.held[f] {
			ix.Upsert(e)
		} else {
			ix.Remove(f)
		}
	}
	return ix.Bytes(), nil
}

func (p *projectSync) gitSide(tree map[string]string, n string) (side, error) {
	return p.blobSide(tree[p.folder+"/"+n])
}

func (p *projectSync) blobSide(oid string) (side, error) {
	if oid == "" {
		return side{}, nil
	}
	data, err := p.cat.blob(oid)
	return side{oid: oid, data: data}, err
}

// baseOID is the base of a file's three-way merge: the version this
// machine last agreed on. For a file held back here at earlier syncs,
// that is the version when it was first held (the base moved on with
// the other machines' changes, which this file never took).
func (p *projectSync) baseOID(n string) string {
	if oid, ok := p.cache.Held[n]; ok {
		return oid
	}
	return p.base[p.folder+"/"+n]
}

// mergeFile decides one file: what the memory directory and the remote
// get.
func (p *projectSync) mergeFile(n string) error {
	if p.held[n] {
		// Held back here (a credential, a file that does not parse): the
		// remote keeps its own version, and so does every other machine.
		return nil
	}
	l, err := p.localSide(n)
	if err != nil {
		return err
	}
	b := side{oid: p.baseOID(n)}
	r := side{oid: p.remote[p.folder+"/"+n]}
	if p.keepMine(n, r.oid) {
		// Resolved as mine: the remote's version, held back here, is
		// replaced with this machine's (or removed, when this machine
		// has none).
		if l.oid == "" {
			p.toRemote(n, nil, false)
			return nil
		}
		b = r
	}
	if l.oid == "" && !p.excluded[n] && !p.cache.had(n) {
		// Not here, and never seen here (a new clone, a directory made
		// again, another checkout): nothing was removed here.
		if r.oid == "" {
			return nil
		}
		if r, err = p.gitSide(p.remote, n); err != nil {
			return err
		}
		p.toLocal(n, r.data, true)
		return nil
	}
	switch {
	case l.oid == r.oid:
		return nil
	case l.oid == b.oid: // changed there only
		if r, err = p.gitSide(p.remote, n); err != nil {
			return err
		}
		p.toLocal(n, r.data, r.oid != "")
		return nil
	case r.oid == b.oid: // changed here only
		p.toRemote(n, l.data, l.oid != "")
		if isIndex(n) && l.oid != "" {
			// The lines withUnseen put back belong here too.
			p.toLocal(n, l.data, true)
		}
		return nil
	case l.oid == "": // removed here, changed there: the change stays
		if r, err = p.gitSide(p.remote, n); err != nil {
			return err
		}
		p.toLocal(n, r.data, true)
		return nil
	case r.oid == "": // removed there, changed here
		p.toRemote(n, l.data, true)
		return nil
	}
	if b, err = p.blobSide(b.oid); err != nil {
		return err
	}
	if r, err = p.gitSide(p.remote, n); err != nil {
		return err
	}
	return p.mergeBoth(n, l, b, r)
}

// mergeBoth merges a file both sides changed.
func (p *projectSync) mergeBoth(n string, l, b, r side) error {
	if isIndex(n) {
		merged := mergeIndex(b.data, l.data, r.data)
		p.toRemote(n, merged, true)
		p.toLocal(n, merged, true)
		return nil
	}
	if merged, clean := mergeTopic(b.data, l.data, r.data); clean {
		p.toRemote(n, merged, true)
		p.toLocal(n, merged, true)
		return nil
	}
	// A real conflict: this machine's version stays in the file, the
	// remote's is kept beside it, and both go to the remote.
	c := conflictName(n, r.oid)
	p.toRemote(n, l.data, true)
	p.toRemote(c, r.data, true)
	p.toLocal(c, r.data, true)
	p.res.Conflicts = append(p.res.Conflicts, c)
	return nil
}

// toLocal records the new content of a local file (or its removal).
// Files kept here are never touched; an index keeps their entries.
func (p *projectSync) toLocal(n string, data []byte, present bool) {
	if p.excluded[n] {
		return
	}
	if !present {
		if _, ok := p.local[n]; ok {
			p.writes[n] = nil
		}
		return
	}
	if isIndex(n) && len(p.excluded) > 0 {
		data = keepEntries(data, p.local[n], p.excluded)
	}
	if _, ok := p.local[n]; ok && p.oid[n] == blobID(data) {
		return
	}
	if p.scanIncoming(n, data) {
		delete(p.writes, n)
		return
	}
	p.writes[n] = data
}

// keepEntries adds back to a merged index the entries the local index
// had for files kept on this machine.
func keepEntries(merged, local []byte, kept map[string]bool) []byte {
	ix := index.Parse(merged)
	for _, e := range index.Parse(local).Entries() {
		if kept[e.File] {
			ix.Upsert(e)
		}
	}
	return ix.Bytes()
}

// toRemote records the new content of a remote file (or its removal).
func (p *projectSync) toRemote(n string, data []byte, present bool) {
	if !present {
		data = nil
	} else if data == nil {
		data = []byte{}
	}
	p.push[p.folder+"/"+n] = data
}
