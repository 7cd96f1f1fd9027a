package viewer

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// inertProblems parses a page as a browser would and lists everything in
// it that could run script or load something: an element that runs or
// embeds, an event-handler attribute, or a URL attribute whose scheme is
// not http, https or mailto. The viewer's own script tag is allowed.
func inertProblems(page string) []string {
	var out []string
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		switch tok.Data {
		case "script":
			if len(tok.Attr) != 2 || attr(tok, "src") != "/assets/app.js" {
				out = append(out, "a script element: "+tok.String())
			}
		case "iframe", "object", "embed", "frame", "base", "meta", "link", "svg", "math", "style", "form":
			if !(tok.Data == "meta" || tok.Data == "link" && attr(tok, "href") == "/assets/style.css" || tok.Data == "form") {
				out = append(out, "an element that loads or runs: "+tok.String())
			}
		}
		for _, a := range tok.Attr {
			k := strings.ToLower(a.Key)
			if strings.HasPrefix(k, "on") || k == "style" || k == "srcdoc" || k == "formaction" {
				out = append(out, "attribute "+k+" in "+tok.String())
			}
			if k == "href" || k == "src" || k == "action" || k == "data-live" {
				if !safeURL(a.Val) {
					out = append(out, "URL "+a.Val+" in "+tok.String())
				}
			}
		}
	}
}

func attr(t html.Token, key string) string {
	for _, a := range t.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// safeURL accepts relative URLs and http, https and mailto, as a browser
// reads them (blanks and control characters stripped).
func safeURL(v string) bool {
	v = strings.Map(func(r rune) rune {
		if r <= ' ' {
			return -1
		}
		return r
	}, v)
	u, err := url.Parse(v)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "", "http", "https", "mailto":
		return !strings.Contains(strings.ToLower(v), "javascript:")
	}
	return false
}

func TestInertOracle(t *testing.T) {
	tests := []struct {
		page string
		bad  bool
	}{
		{`<p>&lt;script&gt;alert(1)&lt;/script&gt; onerror=x</p>`, false},
		{`<a href="/p/x/topic/a.md">a</a><a href="https://e.com">e</a>`, false},
		{`<script>alert(1)</script>`, true},
		{`<img src=x onerror=alert(1)>`, true},
		{`<a href="javascript:alert(1)">x</a>`, true},
		{`<a href=" java	script:alert(1)">x</a>`, true},
		{`<a href="data:text/html,x">x</a>`, true},
		{`<iframe src="/x"></iframe>`, true},
	}
	for _, tc := range tests {
		if got := len(inertProblems(tc.page)) > 0; got != tc.bad {
			t.Errorf("%s: flagged %v, want %v", tc.page, got, tc.bad)
		}
	}
}
