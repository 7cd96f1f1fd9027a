package frontmatter

import (
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

// JSSpace is JavaScript's \s written for the inside of a character class
// of a Go regular expression: ASCII white space, the Unicode space
// separators, the line and paragraph separators and the byte order mark.
const JSSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// claudeExpr is Claude Code 2.1's frontmatter expression,
// /^---\s*\n([\s\S]*?)---\s*\n?/, with \s as JavaScript reads it.
var claudeExpr = lazyre.New(`\A---[` + JSSpace + `]*\n((?s:.)*?)---[` + JSSpace + `]*\n?`)

// SplitClaude splits data as Claude Code 2.1 splits CLAUDE.md, rules,
// imported files and memory files, for the text memdir shows as Claude
// Code's: the YAML runs from after the opening "---" line to the first
// "---" anywhere after it, even inside a line or a value ("a---b" ends
// it), and the body starts after that "---" and all the white space
// after it, blank lines included. A file that starts with a byte order mark, or whose block
// has no "---" after the opening line (closed by "..." or not at all), has
// no frontmatter: ok is false and body is data, "---" line included.
// memdir's own files use Split, which ends a block only at a whole line.
func SplitClaude(data []byte) (yml, body []byte, ok bool) {
	m := claudeExpr().FindSubmatchIndex(data)
	if m == nil {
		return nil, data, false
	}
	return data[m[2]:m[3]], data[m[1]:], true
}

// StripClaude returns s as Claude Code 2.1.332 reads it past its
// frontmatter (the memory index and instruction files alike): a leading
// byte order mark is dropped first, then the block SplitClaude finds. A
// text with no such block comes back unchanged, byte order mark included.
// The result is always a suffix of s.
func StripClaude(s string) string {
	t := strings.TrimPrefix(s, "\ufeff")
	if !strings.HasPrefix(t, "---") {
		return s
	}
	m := claudeExpr().FindStringSubmatchIndex(t)
	if m == nil {
		return s
	}
	return t[m[1]:]
}
