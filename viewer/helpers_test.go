package viewer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// hostile is a topic whose every field tries to run script in the page.
const hostileBody = `Hostile <script>window.pwned = 1; document.title = "pwned"</script> text.

[click me](javascript:window.pwned=1) and [data](data:text/html,<script>alert(1)</script>)
and <img src=x onerror="window.pwned=1"> and <a href="javascript:window.pwned=1">raw</a>.

<iframe src="javascript:window.pwned=1"></iframe>

[[x]](JaVaScRiPt:window.pwned=1) <javascript:window.pwned=1>

![img](javascript:window.pwned=1)
`

// fixture is a memory directory served by a running viewer.
type fixture struct {
	dir    *memdir.Dir
	srv    *Server
	base   string // http://127.0.0.1:PORT
	port   string
	client *http.Client // holds the token's cookie
}

// seed writes a few topics, a private one and a hostile one.
func seed(t *testing.T, d *memdir.Dir) {
	t.Helper()
	reqs := []memdir.AddRequest{
		{Type: typesx.Feedback, Name: "Testing policy", Text: "Integration tests hit a real database, never mocks. See [deploy](project_deploy_checklist.md).", Tags: []string{"tests"}},
		{Type: typesx.Project, Name: "Deploy checklist", Text: "Staging deploys need the VPN and a green canary."},
		{Type: typesx.User, Name: "Role", Text: "The user is a backend engineer who prefers Go."},
		{Type: typesx.Reference, Name: "Payroll secrets", Text: "The zebra ledger lives in the finance vault.", Private: true},
		{Type: typesx.Project, Name: "Hostile <img src=x onerror=window.pwned=1>", Text: hostileBody, Description: `<img src=x onerror="window.pwned=1">`},
	}
	for _, r := range reqs {
		if _, err := d.Add(r); err != nil {
			t.Fatalf("add %s: %v", r.Name, err)
		}
	}
}

// start serves a seeded memory directory on 127.0.0.1 and returns a
// client that has entered with the token.
func start(t *testing.T) *fixture {
	t.Helper()
	d := memdir.Open(filepath.Join(t.TempDir(), "memory"), memdir.Live)
	seed(t, d)
	f := serve(t, d)
	f.enter(t)
	return f
}

// serve serves d as project p1 and each of more as p2, p3 and so on,
// labelled /src/ and the directory's base name.
func serve(t *testing.T, d *memdir.Dir, more ...*memdir.Dir) *fixture {
	t.Helper()
	return serveProjects(t, d, func() ([]Project, error) {
		all := []Project{{ID: "p1", Label: "/src/p1", Dir: d}}
		for i, m := range more {
			all = append(all, Project{ID: fmt.Sprint("p", i+2), Label: "/src/" + filepath.Base(m.Path), Dir: m})
		}
		return all, nil
	})
}

// serveProjects serves the projects listed, p1 (whose directory is d)
// the current one.
func serveProjects(t *testing.T, d *memdir.Dir, projects func() ([]Project, error)) *fixture {
	t.Helper()
	srv, err := New(Options{Projects: projects, Current: "p1", Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &fixture{dir: d, srv: srv, base: "http://" + ln.Addr().String(), port: port, client: client}
}

// enter opens the token URL, as a person does, which sets the cookie.
func (f *fixture) enter(t *testing.T) {
	t.Helper()
	resp, err := f.client.Get(f.base + "/?token=" + f.srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("enter: got %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// get fetches a path with the fixture's cookie and returns status and body.
func (f *fixture) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := f.client.Get(f.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post sends a form as the viewer's own page does: its Origin, its CSRF
// token.
func (f *fixture) post(t *testing.T, path string, form url.Values) (int, string) {
	t.Helper()
	if form.Get("csrf") == "" {
		form.Set("csrf", f.srv.guard.csrf)
	}
	req, _ := http.NewRequest(http.MethodPost, f.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", f.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (f *fixture) file(t *testing.T, name string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir.Path, name))
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}
