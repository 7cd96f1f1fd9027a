package index

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/memdir/memdir/internal/lazyre"
)

// stripComments drops HTML comment blocks from MEMORY.md as Claude Code
// 2.1.332 does before it measures the index (its function OHe, run on
// auto memory's MEMORY.md after the frontmatter is stripped and before
// the caps): when the text holds "<!--", every top-level block that is an
// HTML comment and holds "-->" is cut, from the start of its line through
// the rest of the line the comment closes on and the line breaks after it
// (marked's html token); what the block held besides comments stays when
// it is more than white space. A comment never closed runs to the end of
// the text and stays. When anything was cut, the text is the "\r\n" and
// "\r" of the original made "\n"; otherwise the original, untouched.
//
// Blocks are found with goldmark (CommonMark, as marked with gfm off):
// an HTML block of type 2 at the top level. origin maps each line of the
// result to its line in s (0-based); nil when nothing was cut.
func stripComments(s string) (out string, origin []int) {
	if !strings.Contains(s, "<!--") {
		return s, nil
	}
	g := strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	doc := goldmark.DefaultParser().Parse(text.NewReader([]byte(g)))
	var b strings.Builder
	var t lineOrigins
	y, yLine := 0, 0
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		hb, ok := n.(*ast.HTMLBlock)
		if !ok || hb.HTMLBlockType != ast.HTMLBlockType2 || hb.Lines().Len() == 0 {
			continue
		}
		start := strings.LastIndexByte(g[:hb.Lines().At(0).Start], '\n') + 1
		if start < y {
			continue
		}
		end, closed := commentEnd(g, start)
		if !closed {
			break // it runs to the end of the text, and stays
		}
		startLine := yLine + strings.Count(g[y:start], "\n")
		b.WriteString(g[y:start])
		t.add(g[y:start], yLine, true)
		if kept := commentSpan().ReplaceAllString(g[start:end], ""); TrimJS(kept) != "" {
			b.WriteString(kept)
			t.add(kept, startLine, false)
		}
		y, yLine = end, startLine+strings.Count(g[start:end], "\n")
	}
	if y == 0 {
		return s, nil
	}
	b.WriteString(g[y:])
	t.add(g[y:], yLine, true)
	if !t.open {
		t.origin = append(t.origin, yLine+strings.Count(g[y:], "\n"))
	}
	return b.String(), t.origin
}

// lineOrigins records, for each line written, the line of the original
// text it came from.
type lineOrigins struct {
	origin []int
	open   bool // a line is started and not yet ended
}

// add records the lines chunk starts: from line first on when verbatim,
// else all on line first.
func (t *lineOrigins) add(chunk string, first int, verbatim bool) {
	line := first
	for i := 0; i < len(chunk); {
		if !t.open {
			t.origin, t.open = append(t.origin, line), true
		}
		j := strings.IndexByte(chunk[i:], '\n')
		if j < 0 {
			return
		}
		i += j + 1
		t.open = false
		if verbatim {
			line++
		}
	}
}

var commentSpan = lazyre.New(`<!--[\s\S]*?-->`)

// commentEnd is where marked's html token for the comment at start ends:
// after "-->" (or "<!-->", "<!--->"), the rest of that line and the line
// breaks after it. closed is false when the comment never closes.
func commentEnd(g string, start int) (int, bool) {
	open := start + strings.Index(g[start:], "<!--")
	rest := g[open+4:]
	var close int
	switch {
	case strings.HasPrefix(rest, ">"):
		close = open + 5
	case strings.HasPrefix(rest, "->"):
		close = open + 6
	default:
		i := strings.Index(rest, "-->")
		if i < 0 {
			return len(g), false
		}
		close = open + 4 + i + 3
	}
	end := close
	if i := strings.IndexByte(g[close:], '\n'); i >= 0 {
		end = close + i
	} else {
		end = len(g)
	}
	for end < len(g) && g[end] == '\n' {
		end++
	}
	return end, true
}
