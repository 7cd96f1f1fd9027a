package memdir

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/typesx"
)

// ReconcileRequest says what a reconciliation looks at.
type ReconcileRequest struct {
	// All re-reads every topic file and checks every index line; otherwise
	// only Files are looked at.
	All bool
	// Files are base names of topic files to re-read, present or deleted.
	Files []string
	// Touched are other paths (relative to the directory, slash-separated)
	// seen changed; they are passed on to the committer with the files.
	Touched []string
	// What names the work in the lock note and the change message; it
	// defaults to "reconcile".
	What string
}

// Rename is an index line that followed its topic file to a new name.
type Rename struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// ReconcileResult says what a reconciliation changed in the index and what
// it found wrong and left alone.
type ReconcileResult struct {
	Added   []string `json:"added,omitempty"`   // topics given an index line
	Updated []string `json:"updated,omitempty"` // topics whose line changed
	Renamed []Rename `json:"renamed,omitempty"` // lines that followed a rename
	Removed []string `json:"removed,omitempty"` // lines dropped: file gone or private
	// Problems are files left alone (invalid frontmatter, secrets) and an
	// index over its load caps.
	Problems []Finding `json:"problems,omitempty"`
	// Paths are what was passed to the committer: index files rewritten and
	// the topic and other files seen changed.
	Paths []string `json:"paths,omitempty"`
}

// IndexChanged reports whether any index line was added, changed or
// dropped.
func (r ReconcileResult) IndexChanged() bool {
	return len(r.Added)+len(r.Updated)+len(r.Renamed)+len(r.Removed) > 0
}

// Summary says what changed in a few words: "2 added, 1 removed", or
// "index unchanged".
func (r ReconcileResult) Summary() string {
	var parts []string
	for _, p := range []struct {
		n    int
		verb string
	}{{len(r.Added), "added"}, {len(r.Updated), "updated"}, {len(r.Renamed), "renamed"}, {len(r.Removed), "removed"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.verb))
		}
	}
	if len(parts) == 0 {
		return "index unchanged"
	}
	return strings.Join(parts, ", ")
}

// Reconcile brings the index in line with every topic file on disk; see
// ReconcileWith.
func (d *Dir) Reconcile() (ReconcileResult, error) {
	return d.ReconcileWith(ReconcileRequest{All: true, What: "reconcile"})
}

// ReconcileWith brings MEMORY.md and the overflow indexes in line with
// topic files that someone created, edited, renamed or deleted behind the
// store's back: a new topic gets a line, a changed description updates
// the hook, a renamed file's line follows it in place, a deleted or
// private topic's line goes. It never writes a topic file: a file with
// invalid frontmatter or a secret is reported and its line left as it
// was. It holds the lock and, when anything changed, passes the change to
// the committer once.
func (d *Dir) ReconcileWith(req ReconcileRequest) (ReconcileResult, error) {
	if req.What == "" {
		req.What = "reconcile"
	}
	lk, err := d.lock(req.What)
	if err != nil {
		return ReconcileResult{}, err
	}
	defer lk.Release()
	return d.reconcileLocked(req)
}

// reconcileLocked is ReconcileWith for a caller that holds the lock. An
// index file someone changed while it ran is read again, and the
// reconciliation starts over from the new content.
func (d *Dir) reconcileLocked(req ReconcileRequest) (ReconcileResult, error) {
	var res ReconcileResult
	var seen map[string]*seenTopic
	var written []string
	err := retry(func() error {
		var w []string
		var err error
		res, seen, w, err = d.reconcileOnce(req)
		written = append(written, w...)
		return err
	})
	if err != nil {
		return res, err
	}
	res.Paths = changedPaths(req, seen, written, &res)
	if len(res.Paths) == 0 {
		return res, nil
	}
	return res, d.Changed(Change{Paths: res.Paths, Message: req.What + ": " + changeMessage(res)})
}

// reconcileOnce is one attempt of a reconciliation; it returns the topic
// files it read and the index files it wrote.
func (d *Dir) reconcileOnce(req ReconcileRequest) (ReconcileResult, map[string]*seenTopic, []string, error) {
	var err error
	files := req.Files
	if req.All {
		if files, err = d.TopicFiles(); err != nil {
			return ReconcileResult{}, nil, nil, err
		}
	}
	files = slices.DeleteFunc(slices.Clone(files), func(f string) bool {
		_, copy := ConflictCopy(f)
		return copy || !IsTopicFile(f) || strings.ContainsAny(f, `/\`)
	})
	seen := d.scanTopics(files)
	set, err := d.loadIndexes()
	if err != nil {
		return ReconcileResult{}, nil, nil, err
	}
	var res ReconcileResult
	gone := map[string]bool{}
	for f, s := range seen {
		switch {
		case s.missing:
			gone[f] = true
		case len(s.problems) > 0:
			res.Problems = append(res.Problems, s.problems...)
		}
	}
	if req.All {
		for f := range set.where {
			if seen[f] == nil && IsTopicFile(f) && !strings.ContainsAny(f, `/\`) {
				gone[f] = true
			}
		}
	}
	set.apply(seen, gone, &res)
	written, err := set.write(d)
	if err != nil {
		return res, seen, written, err
	}
	if p := index.Measure(set.files[0].ix.Bytes(), index.DefaultCaps); p.OverCap {
		res.Problems = append(res.Problems, Finding{Kind: index.KindOverCap, Level: LevelWarning, File: IndexFile, Msg: p.Message()})
	}
	slices.SortFunc(res.Problems, func(a, b Finding) int { return strings.Compare(a.File, b.File) })
	return res, seen, written, nil
}

// changedPaths lists what a reconciliation passes to the committer: the index
// files it wrote, the topic files it read that were fine or are gone (a
// broken file or one with a secret is not passed on) and the other paths
// the caller saw change.
func changedPaths(req ReconcileRequest, seen map[string]*seenTopic, written []string, res *ReconcileResult) []string {
	paths := slices.Clone(written)
	if req.All {
		// A full scan cannot tell an edited body from an untouched one:
		// pass on the files whose lines changed.
		paths = append(paths, res.Added...)
		paths = append(paths, res.Updated...)
		paths = append(paths, res.Removed...)
		for _, r := range res.Renamed {
			paths = append(paths, r.From, r.To)
		}
	} else {
		for f, s := range seen {
			if len(s.problems) == 0 {
				paths = append(paths, f)
			}
		}
	}
	paths = append(paths, req.Touched...)
	slices.Sort(paths)
	return slices.Compact(paths)
}

// changeMessage says what a reconciliation changed, for a commit message.
func changeMessage(res ReconcileResult) string {
	if res.IndexChanged() {
		return res.Summary()
	}
	if len(res.Paths) == 1 {
		return "update " + res.Paths[0]
	}
	return fmt.Sprintf("%d files changed", len(res.Paths))
}

// seenTopic is one topic file as a reconciliation read it.
type seenTopic struct {
	topic    *Topic
	missing  bool
	problems []Finding
}

// scanTopics reads and checks files in parallel.
func (d *Dir) scanTopics(files []string) map[string]*seenTopic {
	out := make([]*seenTopic, len(files))
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < min(runtime.GOMAXPROCS(0)*2, len(files)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = d.scanTopic(files[i])
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	seen := make(map[string]*seenTopic, len(files))
	for i, f := range files {
		seen[f] = out[i]
	}
	return seen
}

// scanTopic reads one topic file: gone, parsed, or with the problems that
// keep memdir from using it.
func (d *Dir) scanTopic(file string) *seenTopic {
	data, err := atomicfile.ReadInside(d.Path, file)
	if errors.Is(err, fs.ErrNotExist) {
		return &seenTopic{missing: true}
	}
	if err != nil {
		return &seenTopic{problems: []Finding{{Kind: "read", Level: LevelError, File: file, Msg: rootCause(err).Error()}}}
	}
	t, err := ParseTopic(file, data)
	if err != nil {
		p := problemOf(file, err)
		return &seenTopic{problems: []Finding{{Kind: "frontmatter", Level: LevelError, File: file, Line: p.Line,
			Msg: p.Msg + "; the file is left as it is and its index line unchanged"}}}
	}
	s := &seenTopic{topic: t}
	for _, f := range secrets.Scan(string(data)) {
		s.problems = append(s.problems, Finding{Kind: "secret", Level: LevelError, File: file, Line: f.Line,
			Msg: fmt.Sprintf("looks like a %s (%s): remove it from memory; until then the file is neither indexed nor committed", f.Kind, f.Redacted)})
	}
	return s
}

// indexFile is MEMORY.md or an overflow index, as read and as changed.
type indexFile struct {
	name string
	ix   *index.Index
	old  stamped
}

// indexSet is MEMORY.md (files[0]) and the overflow indexes, with the
// index file each topic's line lives in.
type indexSet struct {
	files []*indexFile
	where map[string]*indexFile
}

func (d *Dir) loadIndexes() (*indexSet, error) {
	ix, old, err := d.loadIndex()
	if err != nil {
		return nil, err
	}
	set := &indexSet{files: []*indexFile{{name: IndexFile, ix: ix, old: old}}, where: map[string]*indexFile{}}
	// Look up the few possible overflow names rather than list a
	// directory of thousands of topics.
	for _, t := range typesx.Types {
		name := index.OverflowFile(t)
		f, err := d.readStamped(name)
		if err != nil {
			return nil, err
		}
		if !f.stamp.Exists {
			continue
		}
		set.files = append(set.files, &indexFile{name: name, ix: index.Parse(f.data), old: f})
	}
	for _, f := range set.files {
		for _, e := range f.ix.Entries() {
			if _, ok := set.where[e.File]; !ok {
				set.where[e.File] = f
			}
		}
	}
	return set, nil
}

// apply changes the index lines of the topics seen and drops the lines of
// the files gone; a new topic takes over the line of a gone one of the
// same type with the same title or hook (a rename).
func (s *indexSet) apply(seen map[string]*seenTopic, gone map[string]bool, res *ReconcileResult) {
	var fresh []*Topic
	for _, f := range slices.Sorted(maps.Keys(seen)) {
		st := seen[f]
		if st.topic == nil || len(st.problems) > 0 {
			continue
		}
		t := st.topic
		at, indexed := s.where[f]
		switch {
		case t.Private:
			if indexed {
				s.drop(f)
				res.Removed = append(res.Removed, f)
			}
		case !indexed:
			fresh = append(fresh, t)
		default:
			// Only a changed description rewrites the line.
			old, _ := at.ix.Lookup(f)
			e := at.ix.KeepTitle(entryOf(t))
			if index.FormatEntry(old) != index.FormatEntry(e) {
				res.Updated = append(res.Updated, f)
				at.ix.Upsert(e)
			}
		}
	}
	main := s.files[0]
	for _, t := range fresh {
		if from := s.renamedFrom(t, gone); from != "" {
			s.relink(from, t)
			delete(gone, from)
			res.Renamed = append(res.Renamed, Rename{From: from, To: t.File})
			continue
		}
		main.ix.Upsert(entryOf(t))
		s.where[t.File] = main
		res.Added = append(res.Added, t.File)
	}
	for _, f := range slices.Sorted(maps.Keys(gone)) {
		if _, ok := s.where[f]; ok {
			s.drop(f)
			res.Removed = append(res.Removed, f)
		}
	}
}

// renamedFrom finds the gone file whose line t should take over.
func (s *indexSet) renamedFrom(t *Topic, gone map[string]bool) string {
	want := entryOf(t)
	for _, f := range slices.Sorted(maps.Keys(gone)) {
		at, ok := s.where[f]
		if !ok {
			continue
		}
		e, _ := at.ix.Lookup(f)
		if e.Type() != want.Type() {
			continue
		}
		// The line's hook may be the description cut as the index cuts it.
		sameHook := e.Hook != "" && (e.Hook == strings.TrimSpace(want.Hook) || e.Hook == at.ix.KeepTitle(want).Hook)
		if strings.EqualFold(strings.TrimSpace(e.Title), strings.TrimSpace(want.Title)) || sameHook {
			return f
		}
	}
	return ""
}

// relink points the first line of from at t, in place, and drops any
// other line of from.
func (s *indexSet) relink(from string, t *Topic) {
	at := s.where[from]
	line := index.Parse([]byte(index.FormatEntry(entryOf(t)))).Lines[0]
	for i, l := range at.ix.Lines {
		if l.Entry != nil && l.Entry.File == from {
			line.No = l.No
			at.ix.Lines[i] = line
			break
		}
	}
	at.ix.Remove(from)
	delete(s.where, from)
	s.where[t.File] = at
}

// drop removes every line of file from every index file.
func (s *indexSet) drop(file string) {
	for _, f := range s.files {
		f.ix.Remove(file)
	}
	delete(s.where, file)
}

// write writes the index files that changed and returns their names.
func (s *indexSet) write(d *Dir) ([]string, error) {
	var written []string
	for _, f := range s.files {
		data := f.ix.Bytes()
		if string(data) == string(f.old.data) {
			continue
		}
		if err := d.writeFile(f.name, data, &f.old.stamp); err != nil {
			return written, err
		}
		written = append(written, f.name)
	}
	return written, nil
}
