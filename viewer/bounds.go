package viewer

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// What one page renders of a markdown file. goldmark's time grows faster
// than its input with nesting (each line walks the stack of open block
// quotes and lists, and indentation is taken a level at a time), with
// link reference definitions, and a table's rows are padded to its
// header's width, and each "](" scans the rest of its line for the link's
// end: a 4 MB nested list took 46 s, 100,000 reference links over a
// minute, a 32 KB table 335 MB of HTML, a 64 KB line of "[a](" 7 s. So
// the file is cut before
// goldmark sees it, at the first line past any of these caps, and the page
// says so and links to the whole file as text. Real topics are far inside
// them.
const (
	renderMaxBytes    = 32 << 10 // bytes rendered
	renderMaxDepth    = 32       // block quotes, list markers and indentation/2 before a line's text
	renderMaxRefs     = 500      // link reference definitions
	renderMaxCells    = 10000    // table cells, counted at the header's width
	renderMaxLinkScan = 1 << 20  // the sum over lines of "](" count times line length
)

// renderCut says where and why a file was cut for rendering.
type renderCut struct {
	Line   int    // the first line not rendered, from 1 (the first line when it was cut inside)
	Reason string // what cap it passed
}

// boundMarkdown returns the part of src the viewer renders: all of it,
// or the lines before the first that passes a cap, with the cut.
func boundMarkdown(src []byte) ([]byte, *renderCut) {
	var sc lineScan
	for off, n := 0, 1; off < len(src); n++ {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		if off+end > renderMaxBytes {
			size := &renderCut{Line: n, Reason: fmt.Sprintf("it is longer than the %d KB a page renders", renderMaxBytes>>10)}
			if off > 0 {
				return src[:off], size
			}
			// The first line alone is longer: render its start.
			end = renderMaxBytes
			for end > 0 && !utf8.RuneStart(src[end]) {
				end--
			}
			if reason := sc.next(src[:end]); reason != "" {
				return nil, &renderCut{Line: 1, Reason: reason}
			}
			return src[:end], size
		}
		if reason := sc.next(src[off : off+end]); reason != "" {
			return src[:off], &renderCut{Line: n, Reason: reason}
		}
		off += end + 1
	}
	return src, nil
}

// lineScan follows a markdown file line by line as far as the caps need:
// top-level fenced code (where nothing nests), reference definitions and
// tables. Where it cannot tell, it counts more than goldmark would.
type lineScan struct {
	fence     byte // '`' or '~' inside a fenced code block, else 0
	fenceLen  int
	refs      int
	cells     int
	linkScan  int
	cols      int    // the open table's width, 0 outside a table
	prev      []byte // the previous line's text, a table's header candidate
	prevBlank bool
}

// next takes one line and says which cap it passes, if any.
func (sc *lineScan) next(line []byte) string {
	depth, text := nesting(line)
	if sc.fence != 0 {
		// Closed by any line of fence characters, indented or not: more
		// often than goldmark closes it, never less.
		if closesFence(text, sc.fence, sc.fenceLen) {
			sc.fence = 0
		}
		return ""
	}
	if depth > renderMaxDepth {
		return fmt.Sprintf("it nests block quotes or lists more than %d deep", renderMaxDepth)
	}
	if c, n := opensFence(text); n > 0 && depth == 0 {
		sc.fence, sc.fenceLen = c, n
		return ""
	}
	blank := len(bytes.TrimSpace(text)) == 0
	switch {
	case blank:
		sc.cols = 0
	case sc.cols > 0:
		sc.cells += sc.cols
	case bytes.HasPrefix(text, []byte("[")) && bytes.Contains(text, []byte("]:")):
		sc.refs++
	case !sc.prevBlank && sc.prev != nil:
		if cols := delimiterRow(text); cols > 0 {
			sc.cols = max(cols, bytes.Count(sc.prev, []byte("|"))+1)
			sc.cells += 2 * sc.cols
		}
	}
	sc.prev, sc.prevBlank = text, blank
	sc.linkScan += bytes.Count(line, []byte("](")) * len(line)
	switch {
	case sc.refs > renderMaxRefs:
		return fmt.Sprintf("it defines more than %d link references", renderMaxRefs)
	case sc.cells > renderMaxCells:
		return fmt.Sprintf("its tables have more than %d cells", renderMaxCells)
	case sc.linkScan > renderMaxLinkScan:
		return "its long lines open more links than a page renders"
	}
	return ""
}

// nesting is how deep a line's text may sit in block quotes and lists,
// counted generously: each '>' and list marker before the text, and
// every two columns of indentation (a nested list item is indented by at
// least two). text is what follows.
func nesting(line []byte) (depth int, text []byte) {
	col, i := 0, 0
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ':
			col++
		case c == '\t':
			col += 4 - col%4
		case c == '>':
			depth++
			i = skipSpace(line, i+1) - 1
		case (c == '-' || c == '*' || c == '+') && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			depth++
			i = skipSpace(line, i+1) - 1
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j == len(line) || (line[j] != '.' && line[j] != ')') || (j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t') {
				return depth + col/2, line[i:]
			}
			depth, i = depth+1, skipSpace(line, j+1)-1
		default:
			return depth + col/2, line[i:]
		}
		i++
	}
	return depth + col/2, line[i:]
}

// skipSpace skips the one space that may follow a marker at line[i].
func skipSpace(line []byte, i int) int {
	if i < len(line) && line[i] == ' ' {
		return i + 1
	}
	return i
}

// opensFence reports a fence that opens a code block: three or more
// backticks or tildes.
func opensFence(text []byte) (byte, int) {
	if len(text) < 3 || (text[0] != '`' && text[0] != '~') {
		return 0, 0
	}
	n := 0
	for n < len(text) && text[n] == text[0] {
		n++
	}
	if n < 3 || (text[0] == '`' && bytes.IndexByte(text[n:], '`') >= 0) {
		return 0, 0
	}
	return text[0], n
}

// closesFence reports whether text closes a fence of c, n long.
func closesFence(text []byte, c byte, n int) bool {
	k := 0
	for k < len(text) && text[k] == c {
		k++
	}
	return k >= n && len(bytes.TrimSpace(text[k:])) == 0
}

// delimiterRow is the number of columns when text is a table's delimiter
// row (|---|:--:|), else 0.
func delimiterRow(text []byte) int {
	t := bytes.TrimSpace(text)
	if len(bytes.Trim(t, "|-: \t")) > 0 || bytes.IndexByte(t, '-') < 0 || bytes.IndexByte(t, '|') < 0 {
		return 0
	}
	t = bytes.TrimSuffix(bytes.TrimPrefix(t, []byte("|")), []byte("|"))
	return bytes.Count(t, []byte("|")) + 1
}
