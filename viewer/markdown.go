package viewer

import (
	"bytes"
	"fmt"
	"html/template"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/memdir/memdir/memdir"
)

// md renders memory's markdown. Raw HTML is never passed through (goldmark
// without html.WithUnsafe writes a comment in its place), and safeLinks
// vets every destination before rendering.
var md = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))
})

// renderMarkdown renders untrusted markdown to HTML that runs nothing.
// topicURL turns a link to another topic file into the viewer's page for
// it. A file past the caps of boundMarkdown is rendered up to the cut,
// then a note says why and links to rawURL, the whole file as text.
func renderMarkdown(src []byte, topicURL func(file string) string, rawURL string) template.HTML {
	head, cut := boundMarkdown(src)
	doc := md().Parser().Parse(text.NewReader(head))
	safeLinks(doc, head, topicURL)
	var buf bytes.Buffer
	if err := md().Renderer().Render(&buf, head, doc); err != nil {
		buf.Reset()
		buf.WriteString(template.HTMLEscapeString(string(head)))
	}
	if cut != nil {
		fmt.Fprintf(&buf, `<p class="cut">The rest of this file is not shown: %s. <a href="%s">The whole file, as text</a></p>`,
			template.HTMLEscapeString(cut.Reason), template.HTMLEscapeString(rawURL))
	}
	return template.HTML(buf.String()) //nolint:gosec // raw HTML off, links vetted by safeLinks, the note escaped
}

// safeLinks rewrites the links and images of doc: a link to a topic file
// goes to its page; http, https and mailto stay; a fragment stays; any
// other destination (javascript:, data:, file:, a path out of memory) is
// dropped and its text kept.
func safeLinks(doc ast.Node, src []byte, topicURL func(string) string) {
	var drop []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if d, ok := safeDestination(string(n.Destination), topicURL); ok {
				n.Destination = []byte(d)
			} else {
				drop = append(drop, n)
			}
		case *ast.Image:
			if d, ok := safeDestination(string(n.Destination), nil); ok {
				n.Destination = []byte(d)
			} else {
				drop = append(drop, n)
			}
		case *ast.AutoLink:
			if n.AutoLinkType != ast.AutoLinkEmail {
				if _, ok := safeDestination(string(n.URL(src)), nil); !ok {
					drop = append(drop, n)
				}
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range drop {
		unwrap(n, src)
	}
}

// unwrap replaces a link or image by its text.
func unwrap(n ast.Node, src []byte) {
	parent := n.Parent()
	if parent == nil {
		return
	}
	if a, ok := n.(*ast.AutoLink); ok {
		parent.ReplaceChild(parent, n, ast.NewString(a.Label(src)))
		return
	}
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	parent.RemoveChild(parent, n)
}

// safeDestination vets a link destination. With topicURL set, a relative
// link to a topic file (feedback_x.md, ./feedback_x.md) becomes its page.
func safeDestination(dest string, topicURL func(string) string) (string, bool) {
	d := strings.TrimSpace(dest)
	if strings.HasPrefix(d, "#") {
		return d, true
	}
	u, err := url.Parse(d)
	if err != nil || d == "" {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.String(), u.Host != ""
	case "mailto":
		return u.String(), true
	case "":
	default:
		return "", false
	}
	if topicURL == nil || u.Host != "" || u.User != nil || strings.HasPrefix(d, "/") || strings.HasPrefix(d, `\`) {
		return "", false
	}
	p := path.Clean(strings.TrimPrefix(u.Path, "./"))
	if strings.ContainsAny(p, `/\`) || !memdir.IsTopicFile(p) {
		return "", false
	}
	return topicURL(p), true
}
