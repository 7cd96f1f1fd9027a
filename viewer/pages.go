package viewer

import (
	"net/http"
	"sort"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/overview"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/typesx"
)

// searchData is the search page: the form as sent and what it found.
type searchData struct {
	Query, Tag, Since, Until, Type string
	Types                          []typesx.Type
	Hits                           []search.Hit
	Err                            string
	Asked                          bool
	// All is the full page of these results when the fragment typed
	// results fetch was cut at typedLimit; "" when nothing was cut.
	All string
}

// How many hits a search shows: the page, and the results fragment the
// page fetches as a person types. Each hit reads its topic file again for
// its snippet, so a keystroke asks for fewer.
const (
	pageLimit  = 50
	typedLimit = 15
)

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	pg, ok := s.start(w, r, "search")
	if !ok {
		return
	}
	v := r.URL.Query()
	sd := &searchData{Query: v.Get("q"), Tag: strings.TrimSpace(v.Get("tag")), Since: v.Get("since"), Until: v.Get("until"),
		Type: v.Get("type"), Types: typesx.Types}
	pg.Title, pg.Data = "search", sd
	partial := v.Get("partial") == "1"
	if strings.TrimSpace(sd.Query) != "" {
		sd.Asked = true
		q := search.Query{Text: sd.Query, Since: sd.Since, Until: sd.Until, IncludePrivate: pg.Private, NoRecall: true, Limit: pageLimit}
		if partial {
			q.Limit = typedLimit + 1 // one more, to know whether there are more
			// Search as you type: the word being typed is a prefix ("kafk").
			q.Prefix = true
		}
		if sd.Tag != "" {
			q.Tags = []string{sd.Tag}
		}
		if t, err := typesx.Parse(sd.Type); err == nil && sd.Type != "" {
			q.Types = []typesx.Type{t}
		}
		hits, err := s.searcher(pg.Project).Search(r.Context(), q)
		if err != nil {
			sd.Err = err.Error()
		}
		if partial && len(hits) > typedLimit {
			hits = hits[:typedLimit]
			full := r.URL.Query()
			full.Del("partial")
			sd.All = pg.Bare("search") + "?" + full.Encode()
		}
		sd.Hits = hits
	}
	if partial {
		s.tmpl.render(w, http.StatusOK, "search", "results", pg)
		return
	}
	s.tmpl.render(w, http.StatusOK, "search", "", pg)
}

// indexData is the index page: MEMORY.md as an agent loads it.
type indexData struct {
	View     index.View
	Lines    []indexLine // the loaded text, line by line
	Dropped  []index.Entry
	More     int // dropped entries not shown
	Overflow []overflowIndex
}

type indexLine struct {
	No    int
	Raw   string
	Entry *index.Entry
}

type overflowIndex struct {
	File    string
	Entries []index.Entry
	More    int
}

// maxListed is the most entries a page lists in one list.
const maxListed = 200

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	pg, ok := s.start(w, r, "index")
	if !ok {
		return
	}
	d := pg.Project.Dir
	data, err := d.IndexBytes()
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	v := index.Load(data, index.DefaultCaps)
	id := &indexData{View: v}
	loaded := v.Text
	if v.Truncated {
		loaded = strings.TrimSuffix(loaded, "\n\n"+v.Warning)
	}
	if loaded != "" {
		for i, l := range strings.Split(loaded, "\n") {
			il := indexLine{No: i + 1, Raw: l}
			if es := index.Parse([]byte(l)).Entries(); len(es) == 1 {
				il.Entry = &es[0]
			}
			id.Lines = append(id.Lines, il)
		}
	}
	id.Dropped, id.More = capList(v.Dropped)
	for _, f := range d.OverflowFiles() {
		b, err := atomicfile.ReadInside(d.Path, f)
		if err != nil {
			continue
		}
		o := overflowIndex{File: f}
		o.Entries, o.More = capList(index.Parse(b).Entries())
		id.Overflow = append(id.Overflow, o)
	}
	pg.Title, pg.Data, pg.Live = "MEMORY.md", id, true
	s.tmpl.render(w, http.StatusOK, "index", "", pg)
}

func capList(es []index.Entry) ([]index.Entry, int) {
	if len(es) > maxListed {
		return es[:maxListed], len(es) - maxListed
	}
	return es, 0
}

// statsData is the stats page.
type statsData struct {
	*overview.Stats
	Types    []typesx.Type
	Schedule string
	Stale    []overview.StaleTopic
	More     int
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	pg, ok := s.start(w, r, "stats")
	if !ok {
		return
	}
	d := pg.Project.Dir
	v, err := s.cache.get("stats|"+d.Path, d.Path, s.opts.Now(), func() (any, error) {
		return s.overviewOf(d).Stats(r.Context(), overview.StatsOptions{Schedule: pg.Project.Schedule})
	})
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	st := v.(*overview.Stats)
	sd := &statsData{Stats: st, Types: typesx.Types, Schedule: pg.Project.Schedule, Stale: st.Stale}
	if len(sd.Stale) > 50 {
		sd.Stale, sd.More = sd.Stale[:50], len(sd.Stale)-50
	}
	pg.Title, pg.Data, pg.Live = "stats", sd, true
	s.tmpl.render(w, http.StatusOK, "stats", "", pg)
}

// newestFirst sorts events newest first.
func newestFirst(evs []overview.Event) {
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Time.After(evs[j].Time) })
}

// overviewOf reads the stats and timelines of a memory directory from its
// topics kept in memory (topicsOf), with the viewer's clock and git
// options.
func (s *Server) overviewOf(d *memdir.Dir) *overview.Reader {
	return &overview.Reader{Dir: d, Source: s.topicsOf(d), Git: s.opts.Git}
}
