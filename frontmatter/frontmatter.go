// Package frontmatter owns the one rule memdir uses to find YAML
// frontmatter at the top of a markdown file (topic files, rules, imported
// instruction files, SKILL.md, CLAUDE.md), and a fast reader for the plain
// "key: value" shape nearly every such block has.
//
// The rule: an optional UTF-8 byte order mark, then a first line that is
// "---", then the YAML, then a line that is "---" or "...". Trailing spaces,
// tabs and a carriage return are ignored on both marker lines. The body
// starts after the closing line. A "---" first line with no closing line
// is ErrUnclosed: a topic file so written is reported by lint and never
// rewritten, and a reader that must fail closed reads every line after the
// opening one (AfterOpening).
//
// Claude Code's own loader uses the regular expression
// /^---\s*\n([\s\S]*?)---\s*\n?/, which agrees with Split on every file
// whose markers stand on their own lines, closed by "---", with no byte
// order mark; where they differ (a "---" inside a value or a later line
// ends its block, "..." does not, an unclosed block is no frontmatter)
// SplitClaude follows it, for the text memdir shows as Claude Code's.
package frontmatter

import (
	"bytes"
	"errors"
)

// Errors Split returns.
var (
	// ErrNone reports a text that does not start with a "---" line.
	ErrNone = errors.New("no frontmatter: the file must start with a --- line")
	// ErrUnclosed reports a "---" first line with no closing line.
	ErrUnclosed = errors.New("frontmatter is not closed: add a --- line after it")
)

var bom = []byte("\xef\xbb\xbf")

// Split returns the YAML between the opening and closing lines and the body
// after the closing line. On ErrNone or ErrUnclosed, yml is nil and body is
// data unchanged.
func Split(data []byte) (yml, body []byte, err error) {
	text := bytes.TrimPrefix(data, bom)
	first, rest, found := cutLine(text)
	if !found || !isMarker(first, false) {
		return nil, data, ErrNone
	}
	start := len(text) - len(rest)
	for len(rest) > 0 {
		lineStart := len(text) - len(rest)
		line, next, _ := cutLine(rest)
		if isMarker(line, true) {
			return text[start:lineStart], next, nil
		}
		rest = next
	}
	return nil, data, ErrUnclosed
}

// AfterOpening returns what follows the opening line when data starts the
// way frontmatter does, closed or not. A reader that must fail closed (is
// this topic private?) reads it as frontmatter when Split says
// ErrUnclosed: a lost closing line then hides nothing that was meant to
// stay out. Claude Code reads such a file as having no frontmatter at all.
func AfterOpening(data []byte) ([]byte, bool) {
	first, rest, found := cutLine(bytes.TrimPrefix(data, bom))
	if !found || !isMarker(first, false) {
		return nil, false
	}
	return rest, true
}

// HasOpening reports whether data starts the way frontmatter does, whether
// or not it is closed within data (a file read only in part).
func HasOpening(data []byte) bool {
	_, ok := AfterOpening(data)
	return ok
}

// isMarker reports whether line is "---" (or, closing, "...") followed only
// by spaces, tabs or a carriage return.
func isMarker(line []byte, closing bool) bool {
	t := bytes.TrimRight(line, " \t\r")
	return string(t) == "---" || closing && string(t) == "..."
}

// cutLine splits data after its first newline.
func cutLine(data []byte) (line, rest []byte, found bool) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return data, nil, false
	}
	return data[:i], data[i+1:], true
}
