package viewer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// TestLargeStore seeds the memory directory $MEMDIR_UI_LARGE with
// $MEMDIR_UI_N topics (10,000) when it has none, for scripts/bench-ui; with
// $MEMDIR_UI_SHOTS set it also serves that directory and saves a
// screenshot of each page there (docs/ui-*.png). It is skipped otherwise.
func TestLargeStore(t *testing.T) {
	dir := os.Getenv("MEMDIR_UI_LARGE")
	if dir == "" {
		t.Skip("MEMDIR_UI_LARGE is not set: scripts/bench-ui sets it")
	}
	n := 10000
	if v := os.Getenv("MEMDIR_UI_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	d := memdir.Open(dir, memdir.Live)
	if files, _ := d.TopicFiles(); len(files) == 0 {
		seedLarge(t, d, n)
	}
	if out := os.Getenv("MEMDIR_UI_SHOTS"); out != "" {
		screenshots(t, d, out)
	}
}

var words = strings.Fields(`deploy staging canary rollback database migration schema index cache redis kafka
queue worker cron billing invoice payroll ledger auth token session cookie oauth login api latency
retry timeout circuit breaker metrics tracing logging alert pager oncall runbook release freeze branch
review lint format test fixture mock integration e2e browser mobile android ios webhook search ranking`)

// seedLarge writes n topic files straight to disk, as agents do, then has
// the store build the index (fitted past the caps, with overflow indexes)
// and appends a few daily-log entries waiting for a dream.
func seedLarge(t *testing.T, d *memdir.Dir, n int) {
	t.Helper()
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		typ := typesx.Types[i%len(typesx.Types)]
		w := func() string { return words[r.IntN(len(words))] }
		first := w()
		name := fmt.Sprintf("%s %s %s %d", strings.ToUpper(first[:1])+first[1:], w(), w(), i)
		desc := fmt.Sprintf("How the %s %s handles %s after the %s change", w(), w(), w(), w())
		created := base.Add(time.Duration(i) * 25 * time.Minute)
		var body strings.Builder
		for p := 0; p < 3; p++ {
			for s := 0; s < 4; s++ {
				fmt.Fprintf(&body, "The %s %s needs %s before %s. ", w(), w(), w(), w())
			}
			body.WriteString("\n\n")
		}
		fmt.Fprintf(&body, "**Why:** the %s broke the %s.\n**How to apply:** check `%s` first.\n", w(), w(), w())
		file := fmt.Sprintf("%s_%s.md", typ, strings.ReplaceAll(strings.ToLower(name), " ", "_"))
		text := fmt.Sprintf("---\nname: %s\ndescription: %s\ntype: %s\ncreated: %s\nmodified: %s\n---\n\n%s",
			name, desc, typ, created.Format(time.RFC3339), created.Add(time.Hour).Format(time.RFC3339), body.String())
		if err := atomicfile.WriteInside(d.Path, file, []byte(text), atomicfile.Options{Perm: 0o644}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Rebuild(); err != nil {
		t.Fatal(err)
	}
	day := base.Add(time.Duration(n) * 25 * time.Minute)
	for i := 0; i < 5; i++ {
		e := dailylog.Entry{Type: typesx.Project, Title: fmt.Sprintf("Log note %d", i), Text: "Remember that the staging canary needs the VPN."}
		if _, err := dailylog.Append(d.Path, day.Add(time.Duration(i)*time.Minute), e); err != nil {
			t.Fatal(err)
		}
	}
}

// screenshots saves a PNG of each page of the viewer over d.
func screenshots(t *testing.T, d *memdir.Dir, out string) {
	f := serve(t, d)
	ctx := tab(t, false)
	run(t, ctx, chromedp.EmulateViewport(1100, 720))
	f.enterBrowser(t, ctx)
	files, _ := d.TopicFiles()
	topic := files[len(files)/2]
	pages := []struct{ name, path string }{
		{"stream", "/p/p1/stream"},
		{"search", "/p/p1/search?q=canary+rollback"},
		{"topic", "/p/p1/topic/" + topic},
		{"index", "/p/p1/index"},
		{"stats", "/p/p1/stats"},
	}
	for _, p := range pages {
		run(t, ctx, chromedp.Navigate(f.base+p.path), visible("main h1"))
		if p.name == "stream" {
			eval[chromedp.Void](t, ctx, `document.querySelector('main details').open = true`)
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(out, "ui-"+p.name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", path, len(png))
	}
}
