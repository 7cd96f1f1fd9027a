package viewer

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

func TestTokenRequired(t *testing.T) {
	f := start(t)
	anon := &http.Client{CheckRedirect: f.client.CheckRedirect}
	tests := []struct {
		name, path string
		cookie     string
		want       int
	}{
		{"no token", "/p/p1/stream", "", http.StatusForbidden},
		{"no token, asset", "/assets/app.js", "", http.StatusForbidden},
		{"no token, events", "/p/p1/events", "", http.StatusForbidden},
		{"wrong token in URL", "/?token=" + strings.Repeat("0", 48), "", http.StatusForbidden},
		{"token one short", "/?token=" + f.srv.Token()[1:], "", http.StatusForbidden},
		{"wrong cookie", "/p/p1/stream", strings.Repeat("a", 48), http.StatusForbidden},
		{"right cookie", "/p/p1/stream", f.srv.Token(), http.StatusOK},
		{"token in URL", "/p/p1/stats?token=" + f.srv.Token(), "", http.StatusSeeOther},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, f.base+tc.path, nil)
			if tc.cookie != "" {
				req.AddCookie(&http.Cookie{Name: cookieName(f.port), Value: tc.cookie})
			}
			resp, err := anon.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("got %d, want %d", resp.StatusCode, tc.want)
			}
			if resp.Header.Get("Content-Security-Policy") != contentPolicy {
				t.Errorf("CSP = %q", resp.Header.Get("Content-Security-Policy"))
			}
		})
	}
	// The token leaves the URL: the redirect keeps the rest of it.
	resp, err := anon.Get(f.base + "/p/p1/search?q=deploy&token=" + f.srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != "/p/p1/search?q=deploy" {
		t.Errorf("redirect to %q, want the address without the token", loc)
	}
	c := resp.Cookies()
	if len(c) != 1 || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode || c[0].Value != f.srv.Token() {
		t.Errorf("cookie = %+v, want one HttpOnly SameSite=Strict cookie with the token", c)
	}
}

func TestHostAndOrigin(t *testing.T) {
	f := start(t)
	tests := []struct {
		name    string
		method  string
		host    string
		headers map[string]string
		csrf    string
		want    int
	}{
		{"own address", "GET", "", nil, "", http.StatusOK},
		{"localhost", "GET", "localhost:" + f.port, nil, "", http.StatusOK},
		{"rebound DNS name", "GET", "attacker.example:" + f.port, nil, "", http.StatusMisdirectedRequest},
		{"rebound name without port", "GET", "attacker.example", nil, "", http.StatusMisdirectedRequest},
		{"other port", "GET", "127.0.0.1:1", nil, "", http.StatusMisdirectedRequest},
		{"other origin", "GET", "", map[string]string{"Origin": "http://attacker.example"}, "", http.StatusForbidden},
		{"null origin", "GET", "", map[string]string{"Origin": "null"}, "", http.StatusForbidden},
		{"cross-site fetch", "GET", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", http.StatusForbidden},
		{"same-site fetch (another local server)", "GET", "", map[string]string{"Sec-Fetch-Site": "same-site"}, "", http.StatusForbidden},
		{"typed address", "GET", "", map[string]string{"Sec-Fetch-Site": "none"}, "", http.StatusOK},
		{"post without csrf", "POST", "", map[string]string{"Origin": f.base}, "-", http.StatusForbidden},
		{"post with wrong csrf", "POST", "", map[string]string{"Origin": f.base}, "nope", http.StatusForbidden},
		{"post from other origin", "POST", "", map[string]string{"Origin": "http://127.0.0.1:9"}, "", http.StatusForbidden},
		{"browser post without origin", "POST", "", map[string]string{"Sec-Fetch-Site": "same-origin"}, "", http.StatusForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := "/p/p1/stats"
			var body io.Reader
			if tc.method == "POST" {
				path = "/p/p1/index/fit"
				form := url.Values{}
				switch tc.csrf {
				case "":
					form.Set("csrf", f.srv.guard.csrf)
				case "-":
				default:
					form.Set("csrf", tc.csrf)
				}
				body = strings.NewReader(form.Encode())
			}
			req, _ := http.NewRequest(tc.method, f.base+path, body)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.host != "" {
				req.Host = tc.host
			}
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			req.AddCookie(&http.Cookie{Name: cookieName(f.port), Value: f.srv.Token()})
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("got %d, want %d: %s", resp.StatusCode, tc.want, b)
			}
		})
	}
}

// TestRefusedWriteChangesNothing: a forged forget (right CSRF token,
// another origin) leaves the topic on disk; the viewer's own form removes it.
func TestRefusedWriteChangesNothing(t *testing.T) {
	f := start(t)
	file := memdir.FileName(typesx.Project, "Deploy checklist")
	form := url.Values{"csrf": {f.srv.guard.csrf}}
	req, _ := http.NewRequest(http.MethodPost, f.base+"/p/p1/topic/"+file+"/forget", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://127.0.0.1:1")
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, ok := f.file(t, file); resp.StatusCode != http.StatusForbidden || !ok {
		t.Fatalf("forged forget: status %d, file kept %v; want 403 and the file", resp.StatusCode, ok)
	}
	code, _ := f.post(t, "/p/p1/topic/"+file+"/forget", url.Values{})
	if _, ok := f.file(t, file); code != http.StatusSeeOther || ok {
		t.Fatalf("forget: status %d, file kept %v; want 303 and no file", code, ok)
	}
	idx, _ := f.file(t, "MEMORY.md")
	if strings.Contains(idx, file) {
		t.Errorf("MEMORY.md still lists %s:\n%s", file, idx)
	}
}

func TestPages(t *testing.T) {
	f := start(t)
	tests := []struct {
		path    string
		want    []string
		notWant []string
	}{
		{"/p/p1/stream", []string{"<h1>Stream</h1>", "Testing policy", "Deploy checklist"}, []string{"Payroll secrets"}},
		{"/p/p1/stream?private=1", []string{"Payroll secrets"}, nil},
		{"/p/p1/search?q=canary", []string{"<mark>canary</mark>", "project_deploy_checklist.md"}, nil},
		{"/p/p1/search?q=canary&partial=1", []string{"<mark>canary</mark>"}, []string{"<html", "<header"}},
		{"/p/p1/search?q=cana&partial=1", []string{"project_deploy_checklist.md"}, []string{"<html", "No matches."}},
		{"/p/p1/search?q=cana", []string{"No matches."}, nil},
		{"/p/p1/search?q=zebra", []string{"No matches."}, []string{"Payroll secrets"}},
		{"/p/p1/search?q=zebra&private=1", []string{"Payroll secrets"}, nil},
		{"/p/p1/search?q=real+database&type=project", []string{"No matches."}, nil},
		{"/p/p1/search?q=real+database&type=feedback&tag=tests", []string{"Testing policy"}, nil},
		{"/p/p1/topic/feedback_testing_policy.md", []string{"<h1>Testing policy</h1>", "MEMORY.md (loaded at session start)",
			`href="/p/p1/topic/project_deploy_checklist.md"`, "type: feedback", "- [Testing policy](feedback_testing_policy.md)"}, nil},
		{"/p/p1/topic/reference_payroll_secrets.md", []string{"hidden until you ask"}, []string{"zebra"}},
		{"/p/p1/topic/reference_payroll_secrets.md?private=1", []string{"zebra"}, nil},
		{"/p/p1/topic/feedback_testing_policy.md/edit", []string{"<textarea", "name: Testing policy"}, nil},
		{"/p/p1/index", []string{"MEMORY.md as an agent loads it", `href="/p/p1/topic/user_role.md"`, "None: every entry is in MEMORY.md."}, []string{"Payroll"}},
		{"/p/p1/stats", []string{"<th>topics</th><td>5</td>", "<th>private</th><td>1</td>"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			code, body := f.get(t, tc.path)
			if code != http.StatusOK {
				t.Fatalf("status %d:\n%s", code, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %q in:\n%s", w, body)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(body, w) {
					t.Errorf("%q shown", w)
				}
			}
		})
	}
	for _, p := range []string{"/p/nope/stream", "/p/p1/topic/nope.md", "/p/p1/topic/MEMORY.md", "/p/p1/topic/..%2fetc.md"} {
		if code, _ := f.get(t, p); code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, code)
		}
	}
}

func TestHostileTopicEscaped(t *testing.T) {
	f := start(t)
	file := memdir.FileName(typesx.Project, "Hostile <img src=x onerror=window.pwned=1>")
	for _, p := range []string{"/p/p1/topic/" + file, "/p/p1/stream", "/p/p1/search?q=hostile", "/p/p1/index"} {
		code, body := f.get(t, p)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", p, code)
		}
		if !strings.Contains(body, "Hostile") {
			t.Errorf("%s: the hostile topic is not shown", p)
		}
		for _, bad := range inertProblems(body) {
			t.Errorf("%s: %s", p, bad)
		}
	}
}

func TestEdit(t *testing.T) {
	f := start(t)
	const file = "feedback_testing_policy.md"
	orig, _ := f.file(t, file)
	base := sum([]byte(orig))
	edited := strings.Replace(orig, "never mocks", "never mocks, not even in CI", 1)
	tests := []struct {
		name     string
		text     string
		base     string
		want     int
		wantFile string
	}{
		{"stale base", edited, sum([]byte("other")), http.StatusConflict, orig},
		{"secret", strings.Replace(orig, "never mocks", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789", 1), base, http.StatusBadRequest, orig},
		{"bad frontmatter", strings.Replace(orig, "type: feedback", "type: nonsense", 1), base, http.StatusBadRequest, orig},
		{"good, CRLF from the browser", strings.ReplaceAll(edited, "\n", "\r\n"), base, http.StatusSeeOther, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, body := f.post(t, "/p/p1/topic/"+file+"/edit", url.Values{"text": {tc.text}, "base": {tc.base}})
			if code != tc.want {
				t.Fatalf("status %d, want %d:\n%s", code, tc.want, body)
			}
			got, _ := f.file(t, file)
			if tc.wantFile != "" && got != tc.wantFile {
				t.Errorf("file changed:\n%s", got)
			}
			if tc.wantFile == "" && (!strings.Contains(got, "not even in CI") || strings.Contains(got, "\r")) {
				t.Errorf("file not saved as edited:\n%q", got)
			}
		})
	}
}

func TestEventsOnChange(t *testing.T) {
	f := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.base+"/p/p1/events", nil)
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	if _, err := r.ReadString('\n'); err != nil { // the stream is open: the poller runs
		t.Fatal(err)
	}
	if _, err := f.dir.Add(memdir.AddRequest{Type: typesx.Project, Name: "Fresh fact", Text: "Appeared while watching."}); err != nil {
		t.Fatal(err)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no change event: %v", err)
		}
		if line == "data: change\n" {
			return
		}
	}
}

func TestShutdownEndsEventStreams(t *testing.T) {
	d := memdir.Open(t.TempDir(), memdir.Live)
	srv, err := New(Options{Projects: func() ([]Project, error) { return []Project{{ID: "p", Dir: d}}, nil }, Current: "p"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.routes())
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/p/p/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	srv.Close()
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatalf("stream did not end cleanly: %v", err)
	}
}

// TestTypedSearchCap: the results a page fetches as a person types stop
// at typedLimit, with a link to the full page, which shows them all.
func TestTypedSearchCap(t *testing.T) {
	d := memdir.Open(filepath.Join(t.TempDir(), "memory"), memdir.Live)
	for i := range typedLimit + 5 {
		if _, err := d.Add(memdir.AddRequest{Type: typesx.Project, Name: fmt.Sprintf("Canary step %d", i), Text: "The canary goes first."}); err != nil {
			t.Fatal(err)
		}
	}
	f := serve(t, d)
	f.enter(t)
	tests := []struct {
		path string
		hits int
		all  bool
	}{
		{"/p/p1/search?q=canary&partial=1", typedLimit, true},
		{"/p/p1/search?q=canary", typedLimit + 5, false},
		{"/p/p1/search?q=13&partial=1", 1, false},
	}
	for _, tc := range tests {
		code, body := f.get(t, tc.path)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", tc.path, code)
		}
		if got := strings.Count(body, `<li class="hit">`); got != tc.hits {
			t.Errorf("%s: %d hits, want %d", tc.path, got, tc.hits)
		}
		if got := strings.Contains(body, `<a href="/p/p1/search?q=canary">All results</a>`); got != tc.all {
			t.Errorf("%s: link to all results %v, want %v:\n%s", tc.path, got, tc.all, body)
		}
	}
}

// TestStatsFollowChanges: the stream and stats pages, which keep every
// topic's frontmatter in memory between loads, show a topic added, edited
// and removed after the first load.
func TestStatsFollowChanges(t *testing.T) {
	f := start(t)
	steps := []struct {
		name   string
		change func()
		stats  string
		stream string // shown on the stream page
		gone   string // not shown there
	}{
		{"first load", func() {}, "<th>topics</th><td>5</td>", "Deploy checklist", "Editor"},
		{"added", func() {
			if _, err := f.dir.Add(memdir.AddRequest{Type: typesx.User, Name: "Editor", Text: "Uses vim."}); err != nil {
				t.Fatal(err)
			}
		}, "<th>topics</th><td>6</td>", "Editor", "Payroll"},
		{"removed", func() {
			if err := f.dir.Remove("user_editor.md"); err != nil {
				t.Fatal(err)
			}
		}, "<th>topics</th><td>5</td>", "Deploy checklist", "Editor"},
	}
	for _, st := range steps {
		st.change()
		if _, body := f.get(t, "/p/p1/stats"); !strings.Contains(body, st.stats) {
			t.Errorf("%s: stats page has no %q:\n%s", st.name, st.stats, body)
		}
		_, body := f.get(t, "/p/p1/stream")
		if !strings.Contains(body, st.stream) || strings.Contains(body, st.gone) {
			t.Errorf("%s: stream page should show %q and not %q:\n%s", st.name, st.stream, st.gone, body)
		}
	}
}
