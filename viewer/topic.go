package viewer

import (
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/search"
)

// historyShown is the most commits a topic page lists, each with its diff.
const historyShown = 10

// topicData is the topic page.
type topicData struct {
	File        string
	Topic       *memdir.Topic // nil for a removed topic
	Body        template.HTML
	Frontmatter string
	Expired     bool
	Hidden      bool // private, and the person has not asked to see it
	Place       string
	Line        string
	Links       []string // topic files this one links to
	Conflicts   []conflict
	Git         bool
	History     []change
	HistoryErr  string
}

// change is one commit of a topic's history, with what it changed.
type change struct {
	memgit.Commit
	Diff string
}

func (s *Server) topic(w http.ResponseWriter, r *http.Request) {
	pg, file, ok := s.startTopic(w, r)
	if !ok {
		return
	}
	if topic, ok := memdir.ConflictCopy(file); ok {
		s.conflictPage(w, pg, file, topic)
		return
	}
	d := pg.Project.Dir
	td := &topicData{File: file}
	pg.Title, pg.Data, pg.Live = file, td, true
	data, err := atomicfile.ReadInside(d.Path, file)
	switch {
	case err == nil:
		if err := s.fillTopic(pg, td, data); err != nil {
			s.fail(w, pg, statusOf(err), err)
			return
		}
	case !errors.Is(err, memdir.ErrNotFound) && !isNotExist(err):
		s.fail(w, pg, statusOf(err), err)
		return
	}
	if td.Hidden {
		s.tmpl.render(w, http.StatusOK, "topic", "", pg)
		return
	}
	s.history(td, d)
	if td.Topic == nil && len(td.History) == 0 {
		s.fail(w, pg, http.StatusNotFound, errors.New(file+": no such topic"))
		return
	}
	s.tmpl.render(w, http.StatusOK, "topic", "", pg)
}

// fillTopic parses and renders a topic that exists.
func (s *Server) fillTopic(pg *page, td *topicData, data []byte) error {
	t, err := memdir.ParseTopic(td.File, data)
	if err != nil {
		return err
	}
	td.Topic, td.Expired = t, t.Expired(s.opts.Now())
	pg.Title = t.Name
	if t.Private && !pg.Private {
		td.Hidden = true
		return nil
	}
	if yml, _, err := frontmatter.Split(data); err == nil {
		td.Frontmatter = string(yml)
	}
	seen := map[string]bool{}
	td.Body = renderMarkdown([]byte(t.Body), func(file string) string {
		if !seen[file] && file != td.File {
			seen[file] = true
			td.Links = append(td.Links, file)
		}
		return pg.topicURL(file)
	}, pg.Link("topic", td.File, "raw"))
	td.Place, td.Line = indexPlace(pg.Project.Dir, td.File)
	td.Conflicts = conflictsOf(pg.Project.Dir, td.File)
	// A person looked at the topic: it counts as recalled, as `memdir
	// show` counts it. Counts are derived data and never fail a page.
	_ = search.Open(pg.Project.Dir).Recall(td.File)
	return nil
}

// indexPlace says where a topic is listed: in what an agent loads of
// MEMORY.md, in MEMORY.md past the caps, in an overflow index or nowhere.
func indexPlace(d *memdir.Dir, file string) (place, line string) {
	data, err := d.IndexBytes()
	if err == nil {
		if e, ok := index.Parse(data).Lookup(file); ok {
			for _, l := range index.Load(data, index.DefaultCaps).Loaded {
				if l.File == file {
					return "MEMORY.md (loaded at session start)", index.FormatEntry(e)
				}
			}
			return "MEMORY.md, past the load caps (agents do not see it)", index.FormatEntry(e)
		}
	}
	for _, f := range d.OverflowFiles() {
		b, err := atomicfile.ReadInside(d.Path, f)
		if err != nil {
			continue
		}
		if e, ok := index.Parse(b).Lookup(file); ok {
			return f + " (an overflow index)", index.FormatEntry(e)
		}
	}
	return "", ""
}

// history lists the topic's commits with their diffs when memory is in
// git.
func (s *Server) history(td *topicData, d *memdir.Dir) {
	r, err := memgit.Open(d.Path, s.opts.Git)
	if errors.Is(err, memgit.ErrNoRepo) {
		return
	}
	td.Git = true
	if err != nil {
		td.HistoryErr = err.Error()
		return
	}
	commits, err := r.History(td.File, historyShown)
	if err != nil {
		td.HistoryErr = err.Error()
		return
	}
	for _, c := range commits {
		var b strings.Builder
		if _, err := r.Diff(&b, memgit.DiffOptions{Change: c.Hash, File: td.File}); err != nil {
			b.WriteString(err.Error())
		}
		td.History = append(td.History, change{Commit: c, Diff: b.String()})
	}
}
