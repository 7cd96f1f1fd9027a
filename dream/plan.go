package dream

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

func isOverflow(name string) (typesx.Type, bool) { return index.IsOverflowFile(name) }

// planner turns the distiller's topics into a journal: the topic writes,
// the archive moves, the fitted index, the report and the new state.
type planner struct {
	d       *memdir.Dir
	s       *snapshot
	now     time.Time
	rep     *Report
	j       *journal
	archive map[string]bool // topic files to archive beyond the expired ones
	// busy holds the files that kept changing under earlier attempts of
	// this dream: the plan leaves them alone, for the next dream.
	busy map[string]bool
}

// plan builds the journal. works holds every topic after distilling;
// distilled are the entries to record as done.
func (p *planner) plan(works []*work, distilled []Entry) error {
	p.j = &journal{Version: 1}
	var keep []*work
	for _, w := range works {
		if p.archive[w.t.File] || w.t.Type == typesx.Project && w.t.Expired(p.now) {
			if _, onDisk := p.s.raw[w.t.File]; onDisk {
				p.planArchive(w.t.File)
				continue
			}
			// A topic created by this very dream with a past expiry is
			// simply written: it has nothing to retire yet.
		}
		keep = append(keep, w)
		if err := p.planTopic(w); err != nil {
			return err
		}
	}
	if err := p.planIndex(keep); err != nil {
		return err
	}
	sort.Strings(p.rep.Created)
	sort.Strings(p.rep.Updated)
	if len(p.j.Writes)+len(p.j.Moves)+len(p.j.Removes)+len(p.j.Last) == 0 && len(distilled) == 0 {
		p.planSeen()
		return nil
	}
	p.planReport()
	st, err := p.s.state.With(distilled).Bytes()
	if err != nil {
		return err
	}
	p.last(statePath, st)
	p.planSeen()
	p.j.Message = p.rep.Message()
	return nil
}

// planSeen records the log count this dream read, after the state (see
// seenPath), when it is not what the last dream recorded.
func (p *planner) planSeen() {
	if !p.s.seenOK || p.s.seen != p.s.count {
		p.last(seenPath, []byte(strconv.FormatInt(p.s.count, 10)+"\n"))
	}
}

// planTopic writes a topic whose bytes changed.
//
// It marshals a copy of the topic: Marshal leaves the frontmatter's YAML
// tree on the topic it marshals, about 2 KB a topic, which the index
// plan, reading only names, descriptions and dates, has no use for; kept
// on 28,000 new topics it was the largest thing a dream held.
func (p *planner) planTopic(w *work) error {
	if !w.changed {
		return nil
	}
	t := *w.t
	data, err := t.Marshal()
	if err != nil {
		return err
	}
	old, onDisk := p.s.raw[w.t.File]
	if onDisk && bytes.Equal(old, data) {
		return nil
	}
	if w.stamp {
		t.Modified = p.now
		if t.Created.IsZero() {
			t.Created = p.now
		}
		w.t.Modified, w.t.Created = t.Modified, t.Created
		if data, err = t.Marshal(); err != nil {
			return err
		}
	}
	p.j.Writes = append(p.j.Writes, fileOp{Path: w.t.File, Data: string(data), Guard: p.guard(w.t.File)})
	p.touch(w.t.File)
	if onDisk {
		p.rep.Updated = append(p.rep.Updated, w.t.File)
	} else {
		p.rep.Created = append(p.rep.Created, w.t.File)
	}
	return nil
}

// planArchive moves a topic to archive/, under a free name.
func (p *planner) planArchive(file string) {
	base := strings.TrimSuffix(file, ".md")
	to := memdir.ArchiveDir + "/" + file
	for n := 2; exists(filepath.Join(p.d.Path, filepath.FromSlash(to))); n++ {
		to = fmt.Sprintf("%s/%s_%d.md", memdir.ArchiveDir, base, n)
	}
	p.j.Moves = append(p.j.Moves, moveOp{From: file, To: to})
	p.touch(file)
	p.touch(to)
	p.rep.Archived = append(p.rep.Archived, file)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// planIndex fits MEMORY.md over the kept topics under 70% of its caps;
// what does not fit goes to the overflow indexes.
func (p *planner) planIndex(keep []*work) error {
	old := index.Parse(p.s.index)
	var metas []index.Meta
	for _, w := range keep {
		if !w.t.Private {
			e := old.KeepTitle(index.Entry{Title: w.t.Name, File: w.t.File, Hook: w.t.Description})
			metas = append(metas, index.Meta{Entry: e, Type: w.t.Type, Modified: w.t.Modified})
		}
	}
	for _, f := range p.s.broken {
		// A topic that does not parse keeps the line it had.
		if e, ok := old.Lookup(f); ok {
			metas = append(metas, index.Meta{Entry: e})
		}
	}
	main, overflow := index.Fit(old, metas, index.DefaultCaps)
	if p.busy[memdir.IndexFile] {
		// Someone keeps editing the index: its refit, and the overflow
		// files that go with it, wait for the next dream.
		p.rep.Problems = append(p.rep.Problems, memdir.IndexFile+" kept changing while dreaming: it is refitted by the next dream")
		return nil
	}
	if data := main.Bytes(); !bytes.Equal(data, p.s.index) {
		p.last(memdir.IndexFile, data)
	}
	for _, t := range typesx.Types {
		name := index.OverflowFile(t)
		es := overflow[t]
		if len(es) == 0 {
			if _, ok := p.s.overflow[name]; ok {
				p.j.Removes = append(p.j.Removes, name)
				if p.j.RemoveGuards == nil {
					p.j.RemoveGuards = map[string]*guard{}
				}
				p.j.RemoveGuards[name] = p.guard(name)
				p.touch(name)
			}
			continue
		}
		for _, e := range es {
			p.rep.NotIndexed = append(p.rep.NotIndexed, e.File)
		}
		if data := index.RenderOverflow(t, es); !bytes.Equal(data, p.s.overflow[name]) {
			p.last(name, data)
		}
	}
	return nil
}

// planReport names the report file and adds it to the journal.
func (p *planner) planReport() {
	stamp := p.now.UTC().Format("2006-01-02T15-04-05Z")
	rel := reportsDir + "/" + stamp + ".md"
	for n := 2; exists(filepath.Join(p.d.Path, filepath.FromSlash(rel))); n++ {
		rel = fmt.Sprintf("%s/%s-%d.md", reportsDir, stamp, n)
	}
	p.rep.File = rel
	p.rep.Changed = append(p.rep.Changed, rel)
	p.j.Last = append(p.j.Last, fileOp{Path: rel, Data: p.rep.Markdown()})
}

// last adds a write of the index, an overflow index or the state.
func (p *planner) last(path string, data []byte) {
	op := fileOp{Path: path, Data: string(data)}
	if !strings.HasPrefix(path, stateDir+"/") {
		op.Guard = p.guard(path)
	}
	p.j.Last = append(p.j.Last, op)
	p.touch(path)
}

// guard is a file as the dream read it (absent when it did not read it).
func (p *planner) guard(path string) *guard { return guardOf(p.s.stamps[path]) }

// touch records a memory path the change touched (state files are not
// memory and are left out of the hook's list).
func (p *planner) touch(path string) {
	if strings.HasPrefix(path, memdir.StateDir+"/") {
		return
	}
	p.j.Paths = append(p.j.Paths, path)
	p.rep.Changed = append(p.rep.Changed, path)
}
