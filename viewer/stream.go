package viewer

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/distilled"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/overview"
)

// The stream's reach.
const (
	streamSpan    = 30 * 24 * time.Hour
	streamEvents  = 200
	streamPending = 100
	streamDreams  = 5
)

// dreamReports is where dream writes its reports (dream's reportsDir).
const dreamReports = memdir.StateDir + "/dreams"

// streamData is the stream page: what changed, newest first.
type streamData struct {
	Source  string
	Since   time.Time
	Events  []overview.Event
	More    int
	Pending []dailylog.Entry
	Waiting int
	Dreams  []dreamReport
	// Conflicts are the conflict copies waiting to be resolved.
	Conflicts []conflict
}

type dreamReport struct {
	Name string
	Body template.HTML
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	pg, ok := s.start(w, r, "stream")
	if !ok {
		return
	}
	d := pg.Project.Dir
	key := fmt.Sprintf("stream|%s|%v", d.Path, pg.Private)
	v, err := s.cache.get(key, d.Path, s.opts.Now(), func() (any, error) { return s.streamOf(r.Context(), pg) })
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	sd := v.(*streamData)
	pg.Title, pg.Data, pg.Live = "stream", sd, true
	s.tmpl.render(w, http.StatusOK, "stream", "", pg)
}

// streamOf gathers the stream: the timeline, the log entries waiting and
// the dream reports.
func (s *Server) streamOf(ctx context.Context, pg *page) (*streamData, error) {
	d := pg.Project.Dir
	now := s.opts.Now()
	sd := &streamData{Since: now.Add(-streamSpan)}
	tl, err := s.overviewOf(d).Timeline(ctx, overview.TimelineQuery{From: sd.Since, To: now, IncludePrivate: pg.Private})
	if err != nil {
		return nil, err
	}
	sd.Source = tl.Source
	var evs []overview.Event
	for _, e := range tl.Events {
		if e.Kind != "log" { // log entries waiting for a dream have their own list
			evs = append(evs, e)
		}
	}
	newestFirst(evs)
	if len(evs) > streamEvents {
		sd.More = len(evs) - streamEvents
		evs = evs[:streamEvents]
	}
	sd.Events = evs
	sd.Pending, sd.Waiting = pendingEntries(d.Path)
	sd.Dreams = s.dreamReports(pg, d.Path)
	sd.Conflicts = conflicts(d)
	return sd, nil
}

// pendingEntries are the daily-log entries no dream has distilled yet,
// newest first, and how many there are.
func pendingEntries(dir string) ([]dailylog.Entry, int) {
	entries, _, err := dailylog.Read(dir, "", "")
	if err != nil || len(entries) == 0 {
		return nil, 0
	}
	done, err := distilled.Of(dir, entries)
	if err != nil {
		done = make([]bool, len(entries))
	}
	var out []dailylog.Entry
	for i := len(entries) - 1; i >= 0; i-- {
		if !done[i] {
			out = append(out, entries[i])
		}
	}
	n := len(out)
	if n > streamPending {
		out = out[:streamPending]
	}
	return out, n
}

// dreamReports renders the newest dream reports. They quote memory, so
// they go through the same renderer as a topic.
func (s *Server) dreamReports(pg *page, dir string) []dreamReport {
	f, err := atomicfile.OpenInside(dir, dreamReports)
	if err != nil {
		return nil
	}
	names, err := f.Readdirnames(-1)
	_ = f.Close()
	if err != nil {
		return nil
	}
	var md []string
	for _, n := range names {
		if strings.HasSuffix(n, ".md") && !strings.HasPrefix(n, ".") {
			md = append(md, n)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(md)))
	var out []dreamReport
	for _, n := range md {
		if len(out) == streamDreams {
			break
		}
		data, err := atomicfile.ReadInside(dir, path.Join(dreamReports, n))
		if err != nil {
			continue
		}
		out = append(out, dreamReport{Name: strings.TrimSuffix(n, ".md"), Body: renderMarkdown(data, pg.topicURL, pg.Link("report", strings.TrimSuffix(n, ".md"), "raw"))})
	}
	return out
}

// topicURL is a topic's page, for links rendered from markdown.
func (p *page) topicURL(file string) string { return p.Link("topic", file) }
