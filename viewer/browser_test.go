package viewer

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// One headless Chromium serves every browser test of the binary; each
// test opens its own tab.
var browser struct {
	once    sync.Once
	ctx     context.Context
	cancel  func()
	userDir string
	err     error
	missing bool
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browser.cancel != nil {
		browser.cancel()
	}
	if browser.userDir != "" {
		_ = os.RemoveAll(browser.userDir)
	}
	os.Exit(code)
}

// chromiumPath finds Debian's chromium (or another Chrome).
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func startBrowser() {
	path := chromiumPath()
	if path == "" {
		browser.missing = true
		return
	}
	if browser.userDir, browser.err = os.MkdirTemp("", "memdir-ui-chromium-"); browser.err != nil {
		return
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(browser.userDir),
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	if browser.err = chromedp.Do(ctx); browser.err != nil {
		cancelCtx()
		cancelAlloc()
		return
	}
	browser.ctx = ctx
	browser.cancel = func() { cancelCtx(); cancelAlloc() }
}

// tab opens a new tab of the shared browser, in a fresh browser context
// (no cookies) when fresh is set. It fails the test on any uncaught
// script exception.
func tab(t *testing.T, fresh bool) context.Context {
	t.Helper()
	browser.once.Do(startBrowser)
	switch {
	case browser.missing && os.Getenv("CI") != "":
		t.Fatal("chromium is not installed and CI is set: .ci/run installs it")
	case browser.missing:
		t.Skip("chromium is not installed (apt-get install chromium); the browser tests need it")
	case browser.err != nil:
		t.Fatalf("start chromium: %v", browser.err)
	}
	var opts []chromedp.ContextOption
	if fresh {
		opts = append(opts, chromedp.WithNewBrowserContext())
	}
	ctx, cancel := chromedp.NewContext(browser.ctx, opts...)
	ctx, cancelTime := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(func() { cancelTime(); cancel() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			t.Errorf("script exception: %+v", e.ExceptionDetails)
		case runtime.EventExceptionThrown:
			t.Errorf("script exception: %+v", e.ExceptionDetails)
		}
	}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// enterBrowser opens the viewer's token address in a tab.
func (f *fixture) enterBrowser(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(f.base+"/?token="+f.srv.Token()), visible("main h1"))
}

// run runs the steps in the tab, in order.
func run(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a script expression in the tab.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// textOf is the visible text of the first element sel selects.
func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return v
}

// waitFor evaluates a script expression every 20 ms until it is true,
// for at most 10 s. An evaluation that fails because the page is being
// replaced (a navigation) is tried again: chromedp's Poll is not.
func waitFor(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var last error
		for {
			ok, err := chromedp.Evaluate[bool](`!!(`+expr+`)`)(ctx, tg)
			if err == nil && ok {
				return chromedp.Void{}, nil
			}
			if err != nil {
				last = err
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, fmt.Errorf("waiting for %s: %w (last error: %v)", expr, ctx.Err(), last)
			case <-tick.C:
			}
		}
	}
}

// visible waits for the element sel selects to be visible.
func visible(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(sel))
}

func TestBrowserPages(t *testing.T) {
	f := start(t)
	ctx := tab(t, false)
	f.enterBrowser(t, ctx)
	tests := []struct{ path, h1, text string }{
		{"/p/p1/stream", "Stream", "Deploy checklist"},
		{"/p/p1/search?q=canary", "Search", "Deploy checklist"},
		{"/p/p1/topic/feedback_testing_policy.md", "Testing policy", "Integration tests hit a real database"},
		{"/p/p1/topic/feedback_testing_policy.md/edit", "Edit feedback_testing_policy.md", "name: Testing policy"},
		{"/p/p1/index", "MEMORY.md as an agent loads it", "Role"},
		{"/p/p1/stats", "Stats", "MEMORY.md lines"},
	}
	for _, tc := range tests {
		run(t, ctx, chromedp.Navigate(f.base+tc.path), visible("main h1"))
		h1 := textOf(t, ctx, "main h1")
		body := eval[string](t, ctx, `document.querySelector('main').innerText + (document.querySelector('textarea') || {value: ''}).value`)
		if h1 != tc.h1 || !strings.Contains(body, tc.text) {
			t.Errorf("%s: h1 %q, want %q; %q in the page: %v", tc.path, h1, tc.h1, tc.text, strings.Contains(body, tc.text))
		}
	}
	// The topic link in the markdown leads to the other topic's page.
	run(t, ctx, chromedp.Navigate(f.base+"/p/p1/topic/feedback_testing_policy.md"), visible("main h1"),
		chromedp.Click(chromedp.CSS(`.markdown a[href$="project_deploy_checklist.md"]`)),
		waitFor(`location.pathname.endsWith('project_deploy_checklist.md')`), visible("main h1"))
	if h1 := textOf(t, ctx, "main h1"); h1 != "Deploy checklist" {
		t.Errorf("after the link: h1 %q", h1)
	}
}

func TestBrowserSearchAsYouType(t *testing.T) {
	f := start(t)
	ctx := tab(t, false)
	f.enterBrowser(t, ctx)
	run(t, ctx, chromedp.Navigate(f.base+"/p/p1/search"), visible(`input[name=q]`))
	eval[chromedp.Void](t, ctx, `window.marker = 7`)
	run(t, ctx, chromedp.SendKeys(chromedp.CSS(`input[name=q]`), "canary"), waitFor(`document.querySelector('#results mark') !== null`))
	marked := textOf(t, ctx, "#results mark")
	kept := eval[bool](t, ctx, `window.marker === 7 && location.search.includes('q=canary')`)
	if marked != "canary" || !kept {
		t.Errorf("highlight %q, same page with the query in its address %v", marked, kept)
	}
}

func TestBrowserEditAndForget(t *testing.T) {
	f := start(t)
	ctx := tab(t, false)
	f.enterBrowser(t, ctx)
	const file = "feedback_testing_policy.md"
	orig, _ := f.file(t, file)
	edited := strings.Replace(orig, "never mocks", "never mocks, edited in a browser", 1)
	run(t, ctx, chromedp.Navigate(f.base+"/p/p1/topic/"+file+"/edit"), visible("textarea"),
		chromedp.SetValue(chromedp.CSS("textarea"), edited), chromedp.Click(chromedp.CSS("#save")),
		waitFor(`location.pathname.endsWith('/topic/`+file+`') && document.querySelector('article.topic') !== null`))
	if got, _ := f.file(t, file); !strings.Contains(got, "edited in a browser") {
		t.Fatalf("edit did not reach the disk:\n%s", got)
	}
	eval[chromedp.Void](t, ctx, `window.confirm = () => true`)
	run(t, ctx, chromedp.Click(chromedp.CSS("#forget")), waitFor(`location.pathname.endsWith('/stream')`))
	if _, ok := f.file(t, file); ok {
		t.Fatal("forget left the file on disk")
	}
}

// memdirBin is the memdir command, built once per test binary.
var memdirBin struct {
	once sync.Once
	path string
	err  error
}

func buildMemdir(t *testing.T) string {
	t.Helper()
	memdirBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "memdir-ui-bin-")
		if err != nil {
			memdirBin.err = err
			return
		}
		memdirBin.path = filepath.Join(dir, "memdir")
		out, err := exec.Command("go", "build", "-o", memdirBin.path, "../cmd/memdir").CombinedOutput()
		if err != nil {
			memdirBin.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if memdirBin.err != nil {
		t.Fatal(memdirBin.err)
	}
	return memdirBin.path
}

func TestBrowserLiveUpdate(t *testing.T) {
	bin := buildMemdir(t)
	f := start(t)
	ctx := tab(t, false)
	f.enterBrowser(t, ctx)
	run(t, ctx, chromedp.Navigate(f.base+"/p/p1/stream"), visible("main h1"))
	eval[chromedp.Void](t, ctx, `window.marker = 42`)
	run(t, ctx, waitFor(`document.body.dataset.listening === '1'`))
	home := t.TempDir()
	cmd := exec.Command(bin, "--dir", f.dir.Path, "add", "project", "Fresh fact", "Appeared while the page was open.")
	cmd.Env = append(os.Environ(), "HOME="+home, "MEMDIR_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("memdir add: %v\n%s", err, out)
	}
	run(t, ctx, waitFor(`document.querySelector('main').innerText.includes('Fresh fact')`))
	if !eval[bool](t, ctx, `window.marker === 42`) {
		t.Error("the page reloaded instead of updating in place")
	}
}

func TestBrowserHostileTopicRunsNothing(t *testing.T) {
	f := start(t)
	ctx := tab(t, false)
	f.enterBrowser(t, ctx)
	file := memdir.FileName(typesx.Project, "Hostile <img src=x onerror=window.pwned=1>")
	const clean = `window.pwned === undefined && document.title !== 'pwned' &&
		document.querySelectorAll('main script, main iframe, main img, main [onerror]').length === 0 &&
		Array.from(document.querySelectorAll('main a')).every(a => /^(https?|mailto):$/.test(a.protocol))`
	for _, p := range []string{"/p/p1/topic/" + file, "/p/p1/stream", "/p/p1/index", "/p/p1/search?q=hostile"} {
		run(t, ctx, chromedp.Navigate(f.base+p), visible("main h1"))
		shown := strings.Contains(eval[string](t, ctx, `document.querySelector('main').innerText`), "Hostile")
		if ok := eval[bool](t, ctx, clean); !shown || !ok {
			t.Errorf("%s: hostile topic shown %v, nothing ran %v", p, shown, ok)
		}
	}
	// Typed search results arrive by script: they must stay inert too.
	run(t, ctx, chromedp.Navigate(f.base+"/p/p1/search"), visible(`input[name=q]`),
		chromedp.SendKeys(chromedp.CSS(`input[name=q]`), "hostile"), waitFor(`document.querySelector('#results .hit') !== null`))
	if !eval[bool](t, ctx, clean) {
		t.Error("search results as you type ran or embedded something")
	}
}

func TestBrowserRefusesStrangers(t *testing.T) {
	f := start(t)
	const file = "user_role.md"
	// A tab with no token sees nothing.
	fresh := tab(t, true)
	run(t, fresh, chromedp.Navigate(f.base+"/p/p1/topic/"+file))
	if body := textOf(t, fresh, "body"); !strings.Contains(body, "token") || strings.Contains(body, "backend engineer") {
		t.Errorf("without the token: %q", body)
	}
	// A page on another local server, in a browser that holds the token's
	// cookie and even knows the CSRF token, cannot read or forget.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>evil</title><form id=f method=post action="%s/p/p1/topic/%s/forget">
<input type=hidden name=csrf value="%s"></form>
<script>
fetch(%q, {credentials: 'include'}).then(r => r.text()).then(t => { window.read = t }).catch(e => { window.read = 'refused' })
  .finally(() => document.getElementById('f').submit());
</script>`, f.base, file, f.srv.guard.csrf, f.base+"/p/p1/topic/"+file)
	}))
	defer evil.Close()
	ctx := tab(t, false)
	f.enterBrowser(t, ctx)
	run(t, ctx, chromedp.Navigate(evil.URL), waitFor(`location.href.startsWith(`+fmt.Sprintf("%q", f.base)+`)`), visible("body"))
	if body := textOf(t, ctx, "body"); !strings.Contains(body, "another site is refused") {
		t.Errorf("the forged form's answer: %q", body)
	}
	if _, ok := f.file(t, file); !ok {
		t.Fatal("a page from another site made the viewer forget a topic")
	}
}
