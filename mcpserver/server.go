// Package mcpserver serves a project's memory to agents over the Model
// Context Protocol, on the official Go SDK, over stdio: tools to search,
// show, add, forget and list memories, a timeline and stats, and the index
// (as an agent loads it) and every topic file as resources.
//
// It is a thin layer over the store (package memdir) and the search engine:
// the same rules as the CLI (live or log mode, near-duplicate merging,
// secrets refused), the same lock for every write, and no cache of file
// content between calls, so a direct edit is seen by the next call.
//
// Which project it serves: the one Options.Open resolves for the server's
// own working directory, or, when the client declares roots and the server
// follows them, for the first file:// root the client lists (listed on the
// first call that needs the project, again after
// notifications/roots/list_changed). Roots are a legacy-handshake feature:
// sessions on protocol 2026-07-28 and later use the server's directory.
//
// Only protocol messages go to the output stream. A line that is not a
// JSON-RPC message gets an error response (parse error or invalid request)
// and the session goes on; a tool that fails returns a result with isError
// set and a message that says why.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

// Project is what the tools work on: a memory directory opened the way the
// CLI opens it (mode, lock timeout, git hook), and how to claim it.
type Project struct {
	Dir *memdir.Dir
	// Claim records the project root in a new memory directory before its
	// first write, as `memdir add` does; nil when there is nothing to claim.
	Claim func() error
	// Schedule is the dream.schedule setting, which memory_stats reports
	// on.
	Schedule string
	// Team opens the project's team memory, which search, show and list
	// see beside the person's own, marked; nil when the call works on a
	// subagent's memory, which has no team part.
	Team TeamOpener
	// Semantic, when set, ranks a directory's memories by meaning (the
	// user's embedding server) for memory_search to fuse with its words.
	Semantic func(*memdir.Dir) search.Semantic
}

// Opener resolves the project of a working directory; "" means the
// server's own (its working directory, --cwd or --dir).
type Opener func(cwd string, agent Agent) (*Project, error)

// Agent names a subagent's own memory (Claude Code's agent memory) by
// its type and scope: user, project or local. The zero Agent is the
// project's memory.
type Agent struct{ Type, Scope string }

// Options configure a Server.
type Options struct {
	// Version is reported to the client as the server's version.
	Version string
	// Open resolves the project for each call. Required.
	Open Opener
	// FollowRoots makes the first file:// root the client lists the
	// working directory; false when the user named the project or the
	// memory directory.
	FollowRoots bool
	// Log receives the server's log lines (standard error); nil discards
	// them.
	Log io.Writer
	// Grace is how long the calls still running may take to answer once
	// the input has ended or Serve's context is done; DefaultGrace when 0.
	Grace time.Duration
}

// Server is an MCP server over one project's memory.
type Server struct {
	opts Options
	mcp  *mcp.Server
	log  *slog.Logger
	logw io.Writer

	mu        sync.Mutex
	rootsGen  int    // bumped by every roots/list_changed
	rootsSeen bool   // root holds the roots listed since the last change
	root      string // the first file:// root's directory, "" for none

	live  map[string]*search.Live // each memory directory's watched index
	cache *memdir.Cache           // the adds' duplicate-check work, kept across calls
}

// New builds a server with every tool and resource registered.
func New(opts Options) (*Server, error) {
	if opts.Open == nil {
		return nil, errors.New("mcpserver: Options.Open is required")
	}
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	s := &Server{opts: opts, logw: w, log: slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})),
		cache: memdir.NewCache()}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "memdir", Title: "memdir: project memory", Version: opts.Version},
		&mcp.ServerOptions{
			Instructions:            instructions(),
			Logger:                  s.log,
			RootsListChangedHandler: s.rootsChanged,
			Capabilities:            &mcp.ServerCapabilities{},
		})
	if err := s.addTools(); err != nil {
		return nil, err
	}
	s.addResources()
	return s, nil
}

// DefaultGrace is how long the calls still running may take to answer
// once the client has closed its input or ctx is done: as long as a write
// waits for the memory lock by default (memdir.DefaultLockTimeout).
const DefaultGrace = memdir.DefaultLockTimeout

// Serve runs one session over in and out (standard input and output) until
// the client closes in or ctx is done. Either way the calls still running
// get one grace period (Options.Grace) to answer; a call still running
// after it is abandoned (the process is expected to exit: every write is
// crash-safe) and Serve returns nil.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	c := newStdioConn(in, out)
	done := make(chan error, 1)
	go func() { done <- s.mcp.Run(ctx, stdioTransport{c}) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = s.wind(c, done, "a signal asked the server to stop")
	case <-c.ended:
		err = s.wind(c, done, "the client closed its input")
	}
	if errors.Is(err, errAbandoned) {
		return nil // calls still run: leave their indexes open
	}
	s.closeIndexes()
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// errAbandoned says the grace period ended with calls still running.
var errAbandoned = errors.New("calls abandoned")

// wind waits the grace period for the session to end once why happened.
func (s *Server) wind(c *stdioConn, done <-chan error, why string) error {
	grace := s.opts.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		c.stop()
		fmt.Fprintf(s.logw, "memdir: mcp: %s; calls still running %s later are abandoned\n", why, grace)
		return errAbandoned
	}
}

// project opens the project a call works on.
func (s *Server) project(ctx context.Context, ss *mcp.ServerSession, agent ...Agent) (*Project, error) {
	var a Agent
	if len(agent) > 0 {
		a = agent[0]
	}
	cwd := ""
	if s.opts.FollowRoots && ss != nil {
		cwd = s.rootDir(ctx, ss)
	}
	p, err := s.opts.Open(cwd, a)
	if err == nil && p.Dir != nil && p.Dir.Cache() == nil {
		p.Dir = p.Dir.With(memdir.WithCache(s.cache))
	}
	return p, err
}

// index returns the watched search index of a memory directory, kept for
// the session: searches after no change answer from memory.
func (s *Server) index(d *memdir.Dir, sem func(*memdir.Dir) search.Semantic) *search.Live {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live == nil {
		s.live = map[string]*search.Live{}
	}
	l := s.live[d.Path]
	if l == nil {
		l = search.OpenLive(d)
		if sem != nil {
			l.WithSemantic(sem(d))
		}
		s.live[d.Path] = l
	}
	return l
}

func (s *Server) closeIndexes() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.live {
		_ = l.Close()
	}
	s.live = nil
}
