package instructions

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/typesx"
	"github.com/memdir/memdir/untrusted"
)

// FileFor returns the file `instructions add --scope` edits for the profile:
// the first existing file of that scope (user files, or the project or local
// names in the worktree's top directory), else the profile's AddFiles entry
// for the scope, else its first name. Managed files are never edited.
func FileFor(p Profile, scope typesx.Scope, opts Options) (string, error) {
	e, err := newEnv(p, opts, realPath)
	if err != nil {
		return "", err
	}
	top := opts.WorkTree
	if top == "" {
		top = opts.Root
	}
	if top == "" {
		top = opts.Cwd
	}
	var names []string
	switch scope {
	case typesx.ScopeUser:
		names, top = p.UserFiles, e.home
	case typesx.ScopeProject:
		names = p.ProjectNames
	case typesx.ScopeLocal:
		names = p.LocalNames
	}
	if len(names) == 0 {
		return "", fmt.Errorf("profile %s: scope %s: %w", p.Name, scope, ErrNoScopeFile)
	}
	for _, n := range names {
		if x := e.expand(n, top); exists(x) {
			return x, nil
		}
	}
	if n, ok := p.AddFiles[string(scope)]; ok && n != "" {
		return e.expand(n, top), nil
	}
	return e.expand(names[0], top), nil
}

// Add appends "- text" under the heading named section (compared without
// regard to case) in the markdown file at path, leaving every other byte as
// it was. The bullet goes after the section's last line; a missing heading is
// added at the end as "## section"; a missing file (and its directory) is
// created. An empty section appends the bullet at the end of the file. Lines
// after the first of a multi-line text are indented to stay in the bullet.
func Add(path, section, text string) error {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if text == "" {
		return fmt.Errorf("add to %s: %w", path, ErrEmptyText)
	}
	section = strings.TrimSpace(section)
	src, err := untrusted.ReadFile(path, "", untrusted.MaxInstruction)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("add to %s: %w", path, err)
	}
	out := insertBullet(src, section, "- "+strings.ReplaceAll(text, "\n", "\n  ")+"\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("add to %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("add to %s: %w", path, err)
	}
	return nil
}

// insertBullet returns src with bullet inserted in section.
func insertBullet(src []byte, section, bullet string) []byte {
	_, body, _ := splitFrontmatter(src)
	off := len(src) - len(body)
	if section != "" {
		if at, list, ok := findSection(body, section); ok {
			at += off
			if !list {
				bullet = "\n" + bullet
			}
			if at > 0 && src[at-1] != '\n' {
				bullet = "\n" + bullet
			}
			return splice(src, at, bullet)
		}
		bullet = "## " + section + "\n\n" + bullet
	}
	sep := ""
	switch {
	case len(src) == 0 || bytes.HasSuffix(src, []byte("\n\n")):
	case section == "" && src[len(src)-1] == '\n':
	case src[len(src)-1] == '\n' || section == "":
		sep = "\n"
	default:
		sep = "\n\n"
	}
	return splice(src, len(src), sep+bullet)
}

func splice(src []byte, at int, s string) []byte {
	out := make([]byte, 0, len(src)+len(s))
	out = append(out, src[:at]...)
	out = append(out, s...)
	return append(out, src[at:]...)
}

// findSection finds the top-level heading named name and returns the offset
// just after the last non-blank line of its own text (which ends at the next
// heading, so a bullet never lands under a subheading), and whether that
// text ends with a list the bullet can join.
func findSection(src []byte, name string) (at int, list, ok bool) {
	doc := parseMarkdown(src)
	var found *ast.Heading
	end := len(src)
	var last ast.Node
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, isHeading := n.(*ast.Heading)
		if found != nil {
			if isHeading {
				end = lineStart(src, h)
				break
			}
			last = n
			continue
		}
		if isHeading && strings.EqualFold(strings.TrimSpace(headingText(src, h)), name) {
			found = h
		}
	}
	if found == nil {
		return 0, false, false
	}
	at = end
	for at > 0 {
		i := bytes.LastIndexByte(src[:at-1], '\n') + 1
		if len(bytes.TrimSpace(src[i:at])) > 0 {
			break
		}
		at = i
	}
	_, list = last.(*ast.List)
	return at, list, true
}

func headingText(src []byte, h *ast.Heading) string {
	var b strings.Builder
	_ = ast.Walk(h, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// lineStart returns the offset of the start of the line a heading begins on.
func lineStart(src []byte, h *ast.Heading) int {
	pos := len(src)
	if h.Lines().Len() > 0 {
		pos = h.Lines().At(0).Start
	}
	return bytes.LastIndexByte(src[:pos], '\n') + 1
}
