package instructions

import (
	"bytes"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/memdir/memdir/internal/lazyre"
)

// mdParser is shared: goldmark's parsers keep their state in the
// parser.Context of each call, so one serves every goroutine, and building
// one costs about three times the parse of a short file.
var mdParser = sync.OnceValue(func() parser.Parser { return goldmark.New().Parser() })

func parseMarkdown(src []byte) ast.Node {
	return mdParser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
}

// Import is one "@path" reference found in markdown text.
type Import struct {
	// Path is the path as written, with "\ " unescaped to a space.
	Path string
	// Offset is the byte offset of the "@" in the scanned text.
	Offset int
}

// FindImports returns the "@path" imports of a markdown text in order. Only
// plain text counts: code spans, code blocks, HTML and autolinks are
// skipped. An "@" must start the text or follow white space, and what
// follows must look like a path: it contains "/" or ".", and no other "@".
// Trailing punctuation is not part of the path.
func FindImports(src []byte) []Import {
	if bytes.IndexByte(src, '@') < 0 {
		return nil
	}
	if plainText(src) {
		return importsIn(src, 0, len(src))
	}
	return findImportsParsed(src)
}

// findImportsParsed is FindImports through the markdown parser.
func findImportsParsed(src []byte) []Import {
	var out []Import
	for _, r := range textRuns(parseMarkdown(src)) {
		out = append(out, importsIn(src, r[0], r[1])...)
	}
	return out
}

// plainText reports whether src has none of the markdown that can hide an
// "@" from FindImports or start a text run after something other than
// white space: no code (backticks, "~" fences, four spaces in a row or a
// tab, which an indented block needs), no HTML, autolinks, block quotes or tables ("<", ">",
// "|"), no links or link definitions ("[", "]"), no emphasis ("*", "_"),
// no escapes or entities ("\", "&"), no control character but "\n". In such text
// every "@" lies in a text run of paragraphs, headings and list items
// that starts at a line's start or after a marker and a space, so the
// imports are those of the whole text taken as one run, and the parse,
// most of the cost of loading a plain instruction file with imports, is
// skipped: about 0.4 ms of the ~3 ms that `memdir context` spends on its
// own work in scripts/bench-context (FuzzPlainImports checks both ways
// agree).
func plainText(src []byte) bool {
	if bytes.Contains(src, []byte("    ")) {
		return false // an indented code block, also after a list marker
	}
	for _, c := range src {
		switch {
		case c == '\n':
		case c < ' ' || c == 0x7f:
			return false // a tab, "\r" and the other controls
		case strings.IndexByte("`~<>|[]*_\\&", c) >= 0:
			return false
		}
	}
	return true
}

// textRuns merges adjacent text segments (goldmark splits text at failed
// emphasis delimiters such as the "_" in "my_file.md") into byte ranges.
func textRuns(doc ast.Node) [][2]int {
	var runs [][2]int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.RawHTML, *ast.AutoLink:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			s := n.Segment
			if k := len(runs) - 1; k >= 0 && runs[k][1] == s.Start {
				runs[k][1] = s.Stop
			} else {
				runs = append(runs, [2]int{s.Start, s.Stop})
			}
		}
		return ast.WalkContinue, nil
	})
	return runs
}

func importsIn(src []byte, start, stop int) []Import {
	var out []Import
	for i := start; i < stop; i++ {
		if src[i] != '@' || (i > start && !isSpace(src[i-1])) {
			continue
		}
		j := i + 1
		var b strings.Builder
		for j < stop && !isSpace(src[j]) {
			if src[j] == '\\' && j+1 < stop && src[j+1] == ' ' {
				b.WriteByte(' ')
				j += 2
				continue
			}
			b.WriteByte(src[j])
			j++
		}
		if p := cleanImport(b.String()); p != "" {
			out = append(out, Import{Path: p, Offset: i})
		}
		i = j - 1
	}
	return out
}

func cleanImport(p string) string {
	p = strings.TrimRight(p, ".,;:!?)]}>\"'`*_")
	if p == "" || strings.Contains(p, "@") || !strings.ContainsAny(p, "/.") {
		return ""
	}
	c := p[0]
	if !(c == '.' || c == '/' || c == '~' || c == '_' || c == '-' ||
		c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		return ""
	}
	if strings.Trim(p, "./") == "" {
		return ""
	}
	return p
}

// claudeImport is Claude Code 2.1's import pattern: "@" at the start of a
// text run or after white space, then everything up to the next white
// space that is not escaped as "\ ".
var claudeImport = lazyre.New(`(?:^|\s)@((?:[^\s\\]|\\ )+)`)

// claudeStart is what an import path may start with beyond "./", "~/" and
// "/": a letter, digit, ".", "_" or "-".
var claudeStart = lazyre.New(`^[a-zA-Z0-9._-]`)

// FindClaudeImports returns the imports of a markdown text as Claude Code
// reads them: in text outside code blocks and code spans, "@path" at the
// start of a text run or after white space; a "#fragment" is dropped and
// "\ " stands for a space; the path starts with "./", "~/", "/" (not "/"
// alone) or a letter, digit, ".", "_" or "-", so a bare name such as
// "@notes" is an import. Nothing is trimmed: "@a.md," names "a.md,".
func FindClaudeImports(src []byte) []Import {
	if bytes.IndexByte(src, '@') < 0 {
		return nil
	}
	var out []Import
	for _, r := range textRuns(parseMarkdown(src)) {
		run := string(src[r[0]:r[1]])
		for _, m := range claudeImport().FindAllStringSubmatchIndex(run, -1) {
			p := run[m[2]:m[3]]
			if i := strings.IndexByte(p, '#'); i >= 0 {
				p = p[:i]
			}
			p = strings.ReplaceAll(p, "\\ ", " ")
			if claudeImportPath(p) {
				out = append(out, Import{Path: p, Offset: r[0] + m[2] - 1})
			}
		}
	}
	return out
}

func claudeImportPath(p string) bool {
	switch {
	case p == "":
		return false
	case strings.HasPrefix(p, "./"), strings.HasPrefix(p, "~/"):
		return true
	case strings.HasPrefix(p, "/"):
		return p != "/"
	}
	return !strings.HasPrefix(p, "@") && strings.TrimLeft(p, "#%^&*()") == p && claudeStart().MatchString(p)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// StripComments removes block HTML comments ("<!-- ... -->" blocks that
// stand on their own lines); comments inside paragraphs and code stay.
// A line left with nothing but white space is removed with its comment.
func StripComments(src []byte) []byte {
	if !bytes.Contains(src, []byte("<!--")) {
		return src
	}
	var spans [][2]int
	_ = ast.Walk(parseMarkdown(src), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		b, ok := n.(*ast.HTMLBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if b.HTMLBlockType == ast.HTMLBlockType2 && b.Lines().Len() > 0 {
			end := b.Lines().At(b.Lines().Len() - 1).Stop
			if b.HasClosure() {
				end = b.ClosureLine.Stop
			}
			spans = append(spans, [2]int{b.Lines().At(0).Start, end})
		}
		return ast.WalkSkipChildren, nil
	})
	if len(spans) == 0 {
		return src
	}
	var out bytes.Buffer
	prev := 0
	for _, s := range spans {
		out.Write(src[prev:s[0]])
		kept := dropComments(src[s[0]:s[1]])
		out.Write(kept)
		prev = s[1]
		// As in Claude Code (marked's html token holds the blank lines after
		// the comment), a removed comment takes the blank lines after it.
		if len(kept) == 0 {
			for prev < len(src) && (src[prev] == '\n' || src[prev] == '\r') {
				prev++
			}
		}
	}
	out.Write(src[prev:])
	return out.Bytes()
}

// dropComments removes every "<!-- ... -->" from an HTML comment block and
// then every line that became blank.
func dropComments(block []byte) []byte {
	var kept bytes.Buffer
	rest := block
	for {
		i := bytes.Index(rest, []byte("<!--"))
		if i < 0 {
			kept.Write(rest)
			break
		}
		kept.Write(rest[:i])
		j := bytes.Index(rest[i+4:], []byte("-->"))
		if j < 0 {
			break
		}
		rest = rest[i+4+j+3:]
	}
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(kept.Bytes(), []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			out.Write(line)
		}
	}
	return out.Bytes()
}
