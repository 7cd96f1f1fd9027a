package viewer

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"
)

//go:embed assets
var assets embed.FS

// pageNames are the templates under assets/ that fill the layout.
var pageNames = []string{"stream", "search", "topic", "conflict", "edit", "index", "stats", "error"}

// templates holds one template set per page, each the layout plus the
// page's content.
type templates struct {
	pages map[string]*template.Template
}

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.Local().Format("2006-01-02 15:04")
	},
	"day": func(t time.Time) string { return t.Local().Format("2006-01-02") },
	"iso": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"pct": func(n, of int) int {
		if of == 0 {
			return 0
		}
		return (100*n + of/2) / of
	},
	"marks": marks,
}

func parseTemplates() (*templates, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "assets/layout.html")
	if err != nil {
		return nil, err
	}
	t := &templates{pages: map[string]*template.Template{}}
	for _, name := range pageNames {
		c, err := layout.Clone()
		if err != nil {
			return nil, err
		}
		if t.pages[name], err = c.ParseFS(assets, "assets/"+name+".html"); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// page is what every page's template gets: the project, the switcher,
// the CSRF token of its forms and the page's own data.
type page struct {
	Title    string
	Nav      string
	Path     string // the request's path, for the private switch
	Project  Project
	Projects []Project
	CSRF     string
	Private  bool
	Live     bool
	Data     any
}

// Link is the address of one of the project's pages: Link "topic" file
// is /p/ID/topic/file. The private switch travels along.
func (p *page) Link(parts ...string) string {
	var b strings.Builder
	b.WriteString("/p/" + url.PathEscape(p.Project.ID))
	for _, s := range parts {
		b.WriteString("/" + url.PathEscape(s))
	}
	if p.Private {
		b.WriteString("?private=1")
	}
	return b.String()
}

// Bare is Link without the private switch: a form's action, whose
// fields carry it.
func (p *page) Bare(parts ...string) string {
	q := *p
	q.Private = false
	return q.Link(parts...)
}

// PrivateLink is the address of the current page with private topics
// shown or hidden.
func (p *page) PrivateLink(show bool) string {
	if show {
		return p.Path + "?private=1"
	}
	return p.Path
}

// render writes a page, or a fragment of it (block "results" of the search
// page, say) when fragment is not "".
func (t *templates) render(w http.ResponseWriter, code int, name, fragment string, p *page) {
	var buf bytes.Buffer
	tp := t.pages[name]
	var err error
	if fragment != "" {
		err = tp.ExecuteTemplate(&buf, fragment, p)
	} else {
		err = tp.ExecuteTemplate(&buf, "layout.html", p)
	}
	if err != nil {
		http.Error(w, fmt.Sprintf("memdir ui: render %s: %v", name, err), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

// marks turns a snippet's **bold** marks into <mark>, escaping the rest.
func marks(s string) template.HTML {
	parts := strings.Split(s, "**")
	var b strings.Builder
	for i, part := range parts {
		esc := template.HTMLEscapeString(part)
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<mark>" + esc + "</mark>")
		} else {
			if i%2 == 1 {
				b.WriteString("**")
			}
			b.WriteString(esc)
		}
	}
	return template.HTML(b.String()) //nolint:gosec // every part escaped above
}
