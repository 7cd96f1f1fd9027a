package mcpserver

import (
	"context"
	"net/url"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootDir is the directory of the first file:// root the client lists, or
// "" when it lists none, cannot list them or the root is not a directory.
// The answer is kept until the client says its roots changed. Roots are
// deprecated from protocol 2026-07-28 on (SA1019), but the agents of today
// send them over the legacy handshake.
func (s *Server) rootDir(ctx context.Context, ss *mcp.ServerSession) string {
	s.mu.Lock()
	if s.rootsSeen {
		defer s.mu.Unlock()
		return s.root
	}
	gen := s.rootsGen
	s.mu.Unlock()

	dir := ""
	if clientHasRoots(ss) {
		res, err := ss.ListRoots(ctx, nil)
		if err != nil {
			s.log.Warn("roots/list failed; serving the working directory's project", "error", err)
		} else {
			dir = s.firstFileRoot(res.Roots)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rootsGen == gen {
		s.rootsSeen, s.root = true, dir
	}
	return dir
}

// rootsChanged forgets the roots listed so far: the next call lists them
// again.
func (s *Server) rootsChanged(context.Context, *mcp.RootsListChangedRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rootsGen++
	s.rootsSeen = false
}

// clientHasRoots reports whether the client declared the roots capability
// in a session that can ask for them: from protocol 2026-07-28 on, roots
// are deprecated and a server can no longer send roots/list on its own.
func clientHasRoots(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil && p.ProtocolVersion < statelessProtocol
}

// statelessProtocol is the first protocol version without the initialize
// handshake and without server-initiated roots/list.
const statelessProtocol = "2026-07-28"

// firstFileRoot is the local directory of the first root, when it is a
// file:// URI naming a directory.
func (s *Server) firstFileRoot(roots []*mcp.Root) string {
	if len(roots) == 0 {
		return ""
	}
	dir, ok := fileURIPath(roots[0].URI)
	if !ok {
		s.log.Warn("the first root is not a local file:// URI; serving the working directory's project", "uri", roots[0].URI)
		return ""
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		s.log.Warn("the first root is not a directory; serving the working directory's project", "dir", dir)
		return ""
	}
	return dir
}

// fileURIPath turns file:///a/b (or file://localhost/a/b) into /a/b.
func fileURIPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", false
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}
