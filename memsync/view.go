package memsync

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
)

// view is what a sync knows of one memory directory before it merges:
// its identity and remote folder, the stats of its files and what the
// last sync left of them.
type view struct {
	p      Project
	id     string
	record bool // the identity is to be recorded: its first sync
	folder string
	// exists is false for a directory not made yet (a project's first
	// sync on a new machine).
	exists bool
	scan   map[string]fileStat
	cache  *statCache
	// token is the directory's sync token ("" when it has none yet).
	token string
	// done is the result of a directory decided without a merge: one
	// with no identity, or a second clone of an identity already synced.
	done *ProjectResult
	// keepMine is set when a held file was resolved as this machine's.
	keepMine bool
}

// look takes the view of a project, without its lock: the stats are
// taken before any read, so a file that changes later stats differently
// at the next sync and is read then.
func (s *syncer) look(p Project, folders map[string]string) (*view, error) {
	id, record, err := identity(p)
	if err != nil {
		return nil, err
	}
	v := &view{p: p, id: id, record: record}
	if id == "" {
		v.done = &ProjectResult{Dir: p.Dir, Skipped: []Skipped{{File: canonical.RootFile, Reason: "records no project root: run any memdir command in the project, then sync"}}}
		return v, nil
	}
	v.folder = ProjectFolder(id)
	if other, ok := folders[v.folder]; ok {
		// Two clones on one machine: the first found is synced; the other
		// would race it for the same files.
		v.done = &ProjectResult{Identity: id, Dir: p.Dir, Skipped: []Skipped{{File: p.Dir, Reason: "has the identity of " + other + ", which this sync carried; merge the two by hand (or remove one) to sync both"}}}
		return v, nil
	}
	folders[v.folder] = p.Dir
	_, err = os.Stat(p.Dir)
	v.exists = err == nil
	v.token = readToken(p.Dir)
	stored := readCache(s.state, v.folder)
	if other := stored.dir(); !s.personal && other != "" && other != p.Dir && dirExists(other) {
		// One team memory synced from two checkouts would undo each
		// other's removals through the one base they share.
		v.done = &ProjectResult{Identity: id, Dir: p.Dir, Skipped: []Skipped{{File: p.Dir, Reason: "this project's team memory is synced from " + other + " on this machine; sync from there (or remove that checkout) so the two cannot undo each other's removals"}}}
		return v, nil
	}
	v.cache = stored.validFor(s.url, p.Dir)
	// A cache written before directories had tokens, for this directory,
	// is adopted once; any other cache whose token the directory does not
	// hold describes another directory: no file counts as seen here, so
	// none counts as removed here.
	if adopt := v.cache.Token == "" && len(v.cache.Files) > 0; !adopt && (v.token == "" || v.cache.Token != v.token) {
		v.cache = &statCache{URL: s.url, Dir: p.Dir, Files: map[string]fileStat{}}
	}
	for _, h := range HeldIncoming(p.Dir) {
		v.keepMine = v.keepMine || h.KeepMine && h.Remote == s.url
	}
	if v.scan, err = scanDir(p.Dir, time.Now()); err != nil {
		return nil, err
	}
	maps.DeleteFunc(v.scan, func(n string, _ fileStat) bool { return !s.carries(n) })
	return v, nil
}

// idle reports whether nothing moved in the directory since the last
// sync left it at commit, which both sides still hold.
func (v *view) idle(commit string) bool {
	return v.done != nil || !v.record && !v.keepMine && v.cache.unchanged(v.scan, commit)
}

// idleResult is what the sync of an idle directory did: nothing, and it
// keeps on this machine what it kept last time.
func (v *view) idleResult() *ProjectResult {
	if v.done != nil || !v.exists {
		return v.done
	}
	return &ProjectResult{Identity: v.id, Dir: v.p.Dir, Skipped: v.cache.Skipped}
}

// project merges one memory directory under its lock and adds what the
// remote must get to push; it returns the merge, whose writes into the
// directory wait for the push (commitRound). A nil merge leaves the
// directory's stat cache as it is.
func (s *syncer) project(v *view, tr *trees, cat *catFile, push map[string][]byte) (*ProjectResult, *projectSync, error) {
	p := v.p
	if tr.base == tr.remote && v.idle(tr.remote) {
		return v.idleResult(), nil, nil
	}
	if !v.exists {
		_, remoteTree, err := tr.get()
		if err != nil {
			return nil, nil, err
		}
		if !hasFolder(remoteTree, v.folder) {
			// Nothing here, nothing there: remembered, so that the next
			// sync with nothing to do lists no tree for it.
			return nil, &projectSync{dir: p.Dir, folder: v.folder, empty: true}, nil
		}
	}
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("sync: %w", err)
	}
	lk, err := memdir.AcquireLock(s.g.ctx, p.Dir, s.o.LockTimeout, "sync")
	if err != nil {
		return nil, nil, err
	}
	defer lk.Release()
	if p.Root != "" && p.Identity == "" {
		if err := canonical.ClaimRoot(p.Dir, p.Root); err != nil {
			return nil, nil, err
		}
	}
	if v.record {
		if err := canonical.RecordIdentity(p.Dir, v.id); err != nil {
			return nil, nil, err
		}
	}
	baseTree, remoteTree, err := tr.get()
	if err != nil {
		return nil, nil, err
	}
	token, err := ensureToken(p.Dir, v.token)
	if err != nil {
		return nil, nil, err
	}
	ps := &projectSync{carries: s.carries, dir: p.Dir, folder: v.folder, base: baseTree, remote: remoteTree, cat: cat, merger: s.merger, scan: v.scan, cache: v.cache, token: token, url: s.url, repo: s.g.repo, heldBefore: HeldIncoming(p.Dir), progress: s.progress}
	ps.res = ProjectResult{Identity: v.id, Dir: p.Dir}
	if err := ps.readLocal(); err != nil {
		return nil, nil, err
	}
	if err := ps.mergeAll(); err != nil {
		return nil, nil, err
	}
	for k, d := range ps.push {
		push[k] = d
	}
	ps.listPushed()
	return &ps.res, ps, nil
}

func hasFolder(tree map[string]string, folder string) bool {
	for p := range tree {
		if strings.HasPrefix(p, folder+"/") {
			return true
		}
	}
	return false
}

// identity is the project's identity: the one given, else the one
// recorded at its first sync, else from its root. It is "" for a
// directory that records no root.
func identity(p Project) (id string, record bool, err error) {
	if p.Identity != "" {
		return p.Identity, false, nil
	}
	if id, err := canonical.RecordedIdentity(p.Dir); err != nil || id != "" {
		return id, false, err
	}
	root := p.Root
	if root == "" {
		if root, err = canonical.RecordedRoot(p.Dir); err != nil || root == "" {
			return "", false, err
		}
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return canonical.PathIdentityPrefix + root, true, nil
	}
	id, err = canonical.Identity(root)
	return id, true, err
}
