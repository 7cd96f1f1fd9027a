package viewer

import (
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"path"

	"github.com/memdir/memdir/memdir"
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/p/"+url.PathEscape(s.opts.Current)+"/stream", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /switch", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/p/"+url.PathEscape(r.URL.Query().Get("to"))+"/stream", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /assets/{name}", s.asset)
	mux.HandleFunc("GET /p/{id}/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/p/"+url.PathEscape(r.PathValue("id"))+"/stream", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /p/{id}/stream", s.stream)
	mux.HandleFunc("GET /p/{id}/search", s.search)
	mux.HandleFunc("GET /p/{id}/topic/{file}", s.topic)
	mux.HandleFunc("GET /p/{id}/topic/{file}/raw", s.rawTopic)
	mux.HandleFunc("GET /p/{id}/report/{name}/raw", s.rawReport)
	mux.HandleFunc("GET /p/{id}/topic/{file}/edit", s.editForm)
	mux.HandleFunc("POST /p/{id}/topic/{file}/edit", s.edit)
	mux.HandleFunc("POST /p/{id}/topic/{file}/forget", s.forget)
	mux.HandleFunc("POST /p/{id}/topic/{file}/restore", s.restore)
	mux.HandleFunc("GET /p/{id}/index", s.index)
	mux.HandleFunc("POST /p/{id}/index/fit", s.fit)
	mux.HandleFunc("GET /p/{id}/stats", s.stats)
	mux.HandleFunc("GET /p/{id}/events", s.events)
	return mux
}

// asset serves the embedded script and style.
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	data, err := fs.ReadFile(assets, "assets/"+name)
	if err != nil || path.Ext(name) == ".html" {
		http.NotFound(w, r)
		return
	}
	switch path.Ext(name) {
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	default:
		http.NotFound(w, r)
		return
	}
	_, _ = w.Write(data)
}

// start resolves the request's project into a page; on failure it has
// answered already.
func (s *Server) start(w http.ResponseWriter, r *http.Request, nav string) (*page, bool) {
	p, all, err := s.project(r.PathValue("id"))
	pg := &page{Nav: nav, Path: r.URL.Path, Projects: all, CSRF: s.guard.csrf, Private: r.URL.Query().Get("private") == "1"}
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, errNoProject) {
			code = http.StatusNotFound
		}
		if len(all) > 0 {
			pg.Project = all[0]
		}
		pg.Title = "error"
		pg.Data = err.Error()
		s.tmpl.render(w, code, "error", "", pg)
		return nil, false
	}
	// Each request works on its own copy: a lock records what it
	// recovered in the Dir, and requests run at once.
	d := *p.Dir
	p.Dir = &d
	pg.Project = p
	return pg, true
}

// fail answers with the error page.
func (s *Server) fail(w http.ResponseWriter, pg *page, code int, err error) {
	pg.Title, pg.Data, pg.Live = "error", err.Error(), false
	s.tmpl.render(w, code, "error", "", pg)
}

// startTopic is start for a topic's page or action: it also resolves the
// topic file the request names.
func (s *Server) startTopic(w http.ResponseWriter, r *http.Request) (*page, string, bool) {
	pg, ok := s.start(w, r, "topic")
	if !ok {
		return nil, "", false
	}
	file := topicFile(r)
	if file == "" {
		s.fail(w, pg, http.StatusNotFound, errors.New("not a topic file name"))
		return nil, "", false
	}
	return pg, file, true
}

// topicFile is the request's topic file name, or "" when it is not one.
func topicFile(r *http.Request) string {
	f := r.PathValue("file")
	if !memdir.IsTopicFile(f) || f != path.Base(f) {
		return ""
	}
	return f
}

// statusOf maps a store error to an HTTP status.
func statusOf(err error) int {
	switch {
	case errors.Is(err, memdir.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return http.StatusNotFound
	case errors.Is(err, memdir.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, memdir.ErrLocked):
		return http.StatusServiceUnavailable
	case memdir.IsInput(err):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}
