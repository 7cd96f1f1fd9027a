package viewer

import (
	"errors"
	"net/http"
	"path"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
)

// rawTopic serves a topic file (or a conflict copy) as plain text: where
// a rendered page stops at its caps, the whole file is one link away. A
// private topic is served only with the private switch on.
func (s *Server) rawTopic(w http.ResponseWriter, r *http.Request) {
	pg, file, ok := s.startTopic(w, r)
	if !ok {
		return
	}
	data, err := atomicfile.ReadInside(pg.Project.Dir.Path, file)
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	if t, err := memdir.ParseTopic(file, data); (err != nil || t.Private) && !pg.Private {
		s.fail(w, pg, http.StatusNotFound, errors.New(file+" is private, or not a topic that says it is not: turn on show private to see it"))
		return
	}
	writeText(w, data)
}

// rawReport serves a dream report as plain text.
func (s *Server) rawReport(w http.ResponseWriter, r *http.Request) {
	pg, ok := s.start(w, r, "stream")
	if !ok {
		return
	}
	name := r.PathValue("name")
	if name == "" || name != path.Base(name) || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `\`) {
		s.fail(w, pg, http.StatusNotFound, errors.New("not a dream report's name"))
		return
	}
	data, err := atomicfile.ReadInside(pg.Project.Dir.Path, dreamReports+"/"+name+".md")
	if err != nil {
		s.fail(w, pg, statusOf(err), err)
		return
	}
	writeText(w, data)
}

// writeText answers with a file as text that no browser renders as a page.
func writeText(w http.ResponseWriter, data []byte) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write(data)
}
