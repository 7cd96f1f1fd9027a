// Package viewer is `memdir ui`: a local web viewer of memory. It serves,
// for each project under memdir's home, a stream of what changed, search,
// each topic rendered (with its history and a restore button), MEMORY.md as
// an agent loads it, and stats; a person can edit, forget and restore topics
// through the same store calls the CLI makes. Pages follow changes to
// memory live (server-sent events from a small poll of the directory).
//
// A local web server is an attack surface: any web page the person visits
// can make their browser send requests to 127.0.0.1. So (security.go):
// the server listens on 127.0.0.1 unless told otherwise; every request
// must carry the random token of this run (in the URL the first time,
// then in a SameSite=Strict, HttpOnly cookie); the Host header must name
// the listener (DNS rebinding: a hostile name resolving to 127.0.0.1 gets
// nothing); a request whose Origin or Sec-Fetch-Site says another site is
// refused; every write is a POST with a CSRF token from the page; and every
// response carries a Content-Security-Policy that allows only the
// viewer's own script and style. Text from memory files is escaped by
// html/template, and markdown is rendered by goldmark with raw HTML left
// out and link destinations limited to http, https, mailto, fragments and
// other topics (markdown.go), so a hostile topic runs nothing.
package viewer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/search"
)

// Project is one memory directory the viewer shows.
type Project struct {
	// ID names the project in URLs: letters, digits, '-', '_' and '.'.
	ID string
	// Label is what the switcher shows: the project's root, say.
	Label string
	// Dir is the open memory directory, its OnChange hook (git) set.
	Dir *memdir.Dir
	// Schedule is the dream.schedule setting ("" when none).
	Schedule string
	// Semantic, when set, ranks memories by meaning (the user's embedding
	// server) for the search page to fuse with its words.
	Semantic search.Semantic
}

// Options configure a Server.
type Options struct {
	// Projects lists the projects to show; it is called on every page,
	// so projects created meanwhile appear.
	Projects func() ([]Project, error)
	// Current is the ID of the project "/" opens.
	Current string
	// Git is what memgit needs (clock, environment) for history.
	Git memgit.Options
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Poll is how often the live updates look for changes; 500ms when 0.
	Poll time.Duration
	// Token is the access token; a random one when "". Tests set it.
	Token string
}

// Server is the viewer of one `memdir ui` run.
type Server struct {
	opts  Options
	guard *guard
	live  *live
	tmpl  *templates
	cache pageCache

	mu      sync.Mutex
	indexes map[string]*search.Live   // by memory directory
	topics  map[string]*search.Topics // by memory directory
	closed  bool
}

// New returns a server; Serve starts it on a listener.
func New(opts Options) (*Server, error) {
	if opts.Projects == nil {
		return nil, errors.New("viewer: no projects")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Poll <= 0 {
		opts.Poll = 500 * time.Millisecond
	}
	g, err := newGuard(opts.Token)
	if err != nil {
		return nil, err
	}
	t, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, guard: g, tmpl: t, indexes: map[string]*search.Live{}, topics: map[string]*search.Topics{}}
	s.live = newLive(opts.Poll, opts.Now)
	return s, nil
}

// Token is the access token every request must present.
func (s *Server) Token() string { return s.guard.token }

// URL is the address a person opens for a listener: it carries the token.
func (s *Server) URL(ln net.Listener) string {
	return fmt.Sprintf("http://%s/?token=%s", ln.Addr().String(), s.guard.token)
}

// Handler returns the viewer's handler for a listener's address: the Host
// header must name that address (or localhost on its port).
func (s *Server) Handler(addr net.Addr) http.Handler {
	return s.guard.wrap(addr, s.routes())
}

// Serve serves on ln until ctx is done, then shuts down.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(ln.Addr()),
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	// The warm-up writes the search index: Serve returns only once it is
	// done, so nothing writes into a memory directory after Serve.
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		s.warm()
	}()
	select {
	case err := <-done:
		<-warmed
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.live.stop()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	<-warmed
	s.Close()
	if errors.Is(err, context.DeadlineExceeded) {
		err = hs.Close()
	}
	return err
}

// Close stops the live updates and the search indexes' and topics'
// watches.
func (s *Server) Close() {
	s.live.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, ix := range s.indexes {
		_ = ix.Close()
		delete(s.indexes, k)
	}
	for k, tp := range s.topics {
		_ = tp.Close()
		delete(s.topics, k)
	}
	s.closed = true
}

// warm reads the current project's topics and loads its search index
// while the person's browser opens, so that the first stream page (where
// "/" leads) and the first search wait less.
func (s *Server) warm() {
	all, err := s.opts.Projects()
	if err != nil {
		return
	}
	for _, p := range all {
		if p.ID == s.opts.Current {
			_ = s.topicsOf(p.Dir).Load()
			_ = s.searcher(p).Load()
		}
	}
}

// searcher is the long-running search index of a memory directory: the
// engine `memdir search` uses, kept loaded between searches.
func (s *Server) searcher(p Project) *search.Live {
	s.mu.Lock()
	defer s.mu.Unlock()
	ix, ok := s.indexes[p.Dir.Path]
	if !ok {
		ix = search.OpenLive(p.Dir)
		if p.Semantic != nil {
			ix.WithSemantic(p.Semantic)
		}
		s.indexes[p.Dir.Path] = ix
	}
	return ix
}

// topicsOf is the topics of a memory directory kept in memory for the
// stream and stats pages: after the first read, a page reads only the
// topic files that changed.
func (s *Server) topicsOf(d *memdir.Dir) *search.Topics {
	s.mu.Lock()
	defer s.mu.Unlock()
	tp, ok := s.topics[d.Path]
	if !ok {
		tp = search.OpenTopics(d)
		if s.closed {
			_ = tp.Close() // answers without watching
		} else {
			s.topics[d.Path] = tp
		}
	}
	return tp
}

// project finds a project by ID.
func (s *Server) project(id string) (Project, []Project, error) {
	all, err := s.opts.Projects()
	if err != nil {
		return Project{}, nil, err
	}
	for _, p := range all {
		if p.ID == id {
			return p, all, nil
		}
	}
	return Project{}, all, errNoProject
}

var errNoProject = errors.New("no such project")
