package search

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// racy reports whether a stamp taken at `at` (wall clock, nanoseconds)
// may hide a later change (atomicfile.Racy).
func racy(mtime, ctime, at int64) bool { return atomicfile.Racy(mtime, ctime, at) }

// isTopicSource reports whether name (a base name) is a topic the index
// reads: a topic file that is not a sync's conflict copy. A copy is the
// other machine's version of a topic, kept until a person merges it
// (lint lists it); searching it would show one memory twice, and it may
// say the opposite of the topic.
func isTopicSource(name string) bool {
	if !memdir.IsTopicFile(name) {
		return false
	}
	if !strings.Contains(name, ".conflict-") { // spares the pattern on nearly every name
		return true
	}
	_, conflict := memdir.ConflictCopy(name)
	return !conflict
}

// scan compares the files with what the index read.
type scan struct {
	dirs    []stamp  // the directories' stamps, for the next scan
	now     []source // the changed files' stamps, sorted by path
	changed []string // paths that are new, changed or racy, sorted
	deleted []string // paths the index has that are gone
	racy    int      // changed only in that their stamp was racy
}

// fresh reports whether the index already reflects every file.
func (sc *scan) fresh() bool { return len(sc.changed) == 0 && len(sc.deleted) == 0 }

// lookup returns a changed file's stamp as the scan took it.
func (sc *scan) lookup(p string) (source, bool) {
	i, ok := slices.BinarySearchFunc(sc.now, p, func(s source, p string) int { return strings.Compare(s.path, p) })
	if !ok {
		return source{}, false
	}
	return sc.now[i], true
}

// known is every source the index holds, in path order: the delta's,
// and the base's that the delta does not replace or remove.
type known struct {
	base, delta *segment
	refs        []int32 // a base source, or -1-i for the delta's source i
}

// knownOf merges the sources of base and delta; nil when there is no
// index.
func knownOf(base, delta *segment) *known {
	if base == nil {
		return nil
	}
	k := &known{base: base, delta: delta}
	nd := 0
	var removed []string
	if delta != nil {
		nd, removed = delta.nsrc(), delta.removed
	}
	k.refs = make([]int32, 0, base.nsrc()+nd)
	i, j, r := 0, 0, 0
	for i < base.nsrc() || j < nd {
		switch {
		case j >= nd || i < base.nsrc() && base.srcPath(i) < delta.srcPath(j):
			p := base.srcPath(i)
			for r < len(removed) && removed[r] < p {
				r++
			}
			if r >= len(removed) || removed[r] != p {
				k.refs = append(k.refs, int32(i))
			}
			i++
		case i >= base.nsrc() || delta.srcPath(j) < base.srcPath(i):
			k.refs = append(k.refs, -1-int32(j))
			j++
		default: // the delta read it again
			k.refs = append(k.refs, -1-int32(j))
			i, j = i+1, j+1
		}
	}
	return k
}

func (k *known) len() int {
	if k == nil {
		return 0
	}
	return len(k.refs)
}

// at is known source x: its segment and its number there.
func (k *known) at(x int) (*segment, int) {
	if r := k.refs[x]; r >= 0 {
		return k.base, int(r)
	}
	return k.delta, int(-1 - k.refs[x])
}

func (k *known) path(x int) string {
	s, i := k.at(x)
	return s.srcPath(i)
}

// find is the number of the known source at path p, or -1.
func (k *known) find(p string) int {
	x := sort.Search(k.len(), func(x int) bool { return k.path(x) >= p })
	if x < k.len() && k.path(x) == p {
		return x
	}
	return -1
}

// scanPaths compares only the files at paths (sorted, each once: those a
// watcher saw touched since the index was last brought up to date) with
// what the index read, and reports what changed; every other file is as
// the index has it. The directories keep the stamps of the index's last
// listing, so a later scan that trusts stamps alone lists them again. A
// path that is neither a topic file nor a daily log is skipped. A racy
// stamp is no concern here: a later change would be another event.
func scanPaths(dir string, k *known, dirs []stamp, paths []string) *scan {
	at := time.Now().UnixNano()
	sc := &scan{dirs: dirs}
	root := openRoot(dir)
	defer closeRoot(root)
	for _, p := range paths {
		if !isTopicSource(p) && !dailylog.IsLogFile(p) {
			continue
		}
		s := statSource(root, p, at)
		if x := k.find(p); x >= 0 {
			seg, n := k.at(x)
			sc.compare(seg, n, s)
		} else if s.kind != 0 {
			sc.now = append(sc.now, s)
			sc.changed = append(sc.changed, p)
		}
	}
	return sc
}

// scanFiles stats every source file, listing the directories again only
// when one of them changed since the index listed it (or there is no
// index), and reports what changed. The wall clock is used, never the
// command's clock: stamps come from the file system.
func scanFiles(dir string, k *known, dirs []stamp) *scan {
	at := time.Now().UnixNano()
	sc := &scan{dirs: dirs}
	if k != nil && !dirsChanged(dir, dirs) {
		sc.compareKnown(dir, k, at)
		return sc
	}
	var names []string
	names, sc.dirs = listSources(dir, at)
	sort.Strings(names)
	stats := statSources(dir, names, at)
	for i, j := 0, 0; i < len(names) || j < k.len(); {
		switch {
		case j >= k.len() || i < len(names) && names[i] < k.path(j):
			if stats[i].kind != 0 {
				sc.now = append(sc.now, stats[i])
				sc.changed = append(sc.changed, names[i])
			}
			i++
		case i >= len(names) || k.path(j) < names[i]:
			sc.deleted = append(sc.deleted, k.path(j))
			j++
		default:
			seg, n := k.at(j)
			sc.compare(seg, n, stats[i])
			i, j = i+1, j+1
		}
	}
	return sc
}

// compare files known source n of seg against its stamp now.
func (sc *scan) compare(seg *segment, n int, s source) {
	switch compareStamp(seg, n, &s) {
	case stampGone:
		sc.deleted = append(sc.deleted, seg.srcPath(n))
	case stampChanged:
		sc.now = append(sc.now, s)
		sc.changed = append(sc.changed, s.path)
	case stampRacy:
		sc.now = append(sc.now, s)
		sc.changed = append(sc.changed, s.path)
		sc.racy++
	}
}

// What a file's stamp says against the index's.
const (
	stampSame = iota
	stampGone
	stampChanged
	stampRacy // the same, but taken too soon after a change to trust
)

func compareStamp(seg *segment, n int, s *source) int {
	switch {
	case s.kind == 0:
		return stampGone
	case !seg.sameStamp(n, s):
		return stampChanged
	case seg.srcRacy(n):
		return stampRacy
	}
	return stampSame
}

// compareKnown stats the files the index knows, on every core, without
// listing the directories or copying a path: the common case, where no
// file was created, removed or renamed.
func (sc *scan) compareKnown(dir string, k *known, at int64) {
	type result struct {
		x    int
		what int
		s    source
	}
	root := openRoot(dir)
	defer closeRoot(root)
	workers := min(runtime.GOMAXPROCS(0), 4, max(k.len(), 1))
	found := make([][]result, workers)
	parallel(workers, func(w int) {
		for x := w; x < k.len(); x += workers {
			seg, n := k.at(x)
			s := statSource(root, seg.srcPath(n), at)
			if what := compareStamp(seg, n, &s); what != stampSame {
				found[w] = append(found[w], result{x, what, s})
			}
		}
	})
	all := slices.Concat(found...)
	slices.SortFunc(all, func(a, b result) int { return a.x - b.x })
	for _, r := range all {
		seg, n := k.at(r.x)
		switch r.what {
		case stampGone:
			sc.deleted = append(sc.deleted, seg.srcPath(n))
		case stampRacy:
			sc.racy++
			fallthrough
		default:
			sc.now = append(sc.now, r.s)
			sc.changed = append(sc.changed, r.s.path)
		}
	}
}

// dirsChanged reports whether a directory's stamp moved (a file was
// created, removed or renamed in it) or could not be trusted.
func dirsChanged(dir string, dirs []stamp) bool {
	if len(dirs) == 0 {
		return true
	}
	for _, d := range dirs {
		if d.racy || dirMtime(filepath.Join(dir, filepath.FromSlash(d.path))) != d.mtime {
			return true
		}
	}
	return false
}

// listSources lists the topic files and the daily logs, and stamps the
// directories that hold them (a directory that does not exist has the
// zero stamp, so its creation is noticed).
func listSources(dir string, at int64) ([]string, []stamp) {
	var names []string
	dirs := []string{".", memdir.LogsDir}
	if f, err := os.Open(dir); err == nil {
		all, _ := f.Readdirnames(-1)
		f.Close()
		for _, n := range all {
			if isTopicSource(n) {
				names = append(names, n)
			}
		}
	}
	logs, _ := dailylog.Files(dir)
	seen := map[string]bool{}
	for _, abs := range logs {
		rel, err := filepath.Rel(dir, abs)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		names = append(names, rel)
		for d := path.Dir(rel); d != memdir.LogsDir && d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	stamps := make([]stamp, len(dirs))
	for i, d := range dirs {
		m := dirMtime(filepath.Join(dir, filepath.FromSlash(d)))
		stamps[i] = stamp{path: d, mtime: m, racy: m != 0 && racy(m, 0, at)}
	}
	return names, stamps
}

// statSources stamps the files at names, on every core: kind 0 for one
// that is gone or not a regular file.
func statSources(dir string, names []string, at int64) []source {
	out := make([]source, len(names))
	root := openRoot(dir)
	defer closeRoot(root)
	workers := min(runtime.GOMAXPROCS(0), 4, len(names))
	parallel(workers, func(w int) {
		for i := w; i < len(names); i += workers {
			out[i] = statSource(root, names[i], at)
		}
	})
	return out
}

// statSource stamps one file; kind 0 when it is gone or not a regular
// file.
func statSource(root *atomicfile.Root, name string, at int64) source {
	size, mtime, ctime, ino, ok := stampFile(root, name)
	return newSource(name, size, mtime, ctime, ino, ok, at)
}

func newSource(name string, size, mtime, ctime int64, ino uint64, ok bool, at int64) source {
	if !ok {
		return source{}
	}
	s := source{path: name, kind: srcTopic, size: size, mtime: mtime, ctime: ctime, ino: ino}
	if strings.HasPrefix(name, memdir.LogsDir+"/") {
		s.kind = srcLog
	}
	s.racy = racy(s.mtime, s.ctime, at)
	return s
}
