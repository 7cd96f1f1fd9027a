package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/typesx"
)

// FormatEntry renders e as its canonical line: "- [Title](file.md) — hook",
// without the " — hook" part when the hook is empty. Line breaks in the
// title and hook become spaces, surrounding space is trimmed, and brackets
// and backslashes in the title are escaped, so the line parses back to the
// same (cleaned) entry. File is written as given: it must be a relative .md
// name without spaces or parentheses, as the store's file names are.
func FormatEntry(e Entry) string {
	e = clean(e)
	var b strings.Builder
	b.WriteString("- [")
	b.WriteString(escapeTitle(e.Title))
	b.WriteString("](")
	b.WriteString(e.File)
	b.WriteString(")")
	if e.Hook != "" {
		b.WriteString(" — ")
		b.WriteString(e.Hook)
	}
	return b.String()
}

// clean flattens line breaks to spaces and trims the title and hook: what
// an entry looks like after a trip through a line.
func clean(e Entry) Entry {
	e.Title = flatten(e.Title)
	e.Hook = flatten(e.Hook)
	return e
}

var flattener = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

func flatten(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = flattener.Replace(s)
	}
	return strings.TrimSpace(s)
}

func escapeTitle(s string) string {
	if !strings.ContainsAny(s, `\[]`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c == '[' || c == ']' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseEntry reads an entry line: a list item ("-", "*" or "+", optionally
// indented) whose content starts with a link to a relative .md path, then an
// optional separator (" — ", " – ", " - ", ": ") and the hook.
func parseEntry(raw string) (Entry, bool) {
	s := strings.TrimLeft(strings.TrimRight(raw, "\r"), " \t")
	if len(s) < 2 || strings.IndexByte("-*+", s[0]) < 0 || (s[1] != ' ' && s[1] != '\t') {
		return Entry{}, false
	}
	s = strings.TrimLeft(s[1:], " \t")
	title, rest, ok := parseLinkText(s)
	if !ok {
		return Entry{}, false
	}
	file, rest, ok := parseTarget(rest)
	if !ok {
		return Entry{}, false
	}
	// "./x.md" names the same file as "x.md": compare and check by the
	// clean name.
	for strings.HasPrefix(file, "./") {
		file = file[2:]
	}
	return Entry{Title: strings.TrimSpace(title), File: file, Hook: parseHook(rest)}, true
}

// parseLinkText reads "[text]" at the start of s, honouring backslash
// escapes and balanced brackets.
func parseLinkText(s string) (text, rest string, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	depth, escaped := 0, false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			i++
			escaped = true
		case c == '[':
			depth++
		case c == ']' && depth == 0:
			if escaped {
				return unescape(s[1:i]), s[i+1:], true
			}
			return s[1:i], s[i+1:], true
		case c == ']':
			depth--
		}
	}
	return "", "", false
}

// unescape drops the backslash of every backslash escape.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// parseTarget reads "(file.md)" at the start of s.
func parseTarget(s string) (target, rest string, ok bool) {
	if !strings.HasPrefix(s, "(") {
		return "", "", false
	}
	end := strings.IndexByte(s, ')')
	if end < 0 {
		return "", "", false
	}
	target = strings.TrimSpace(s[1:end])
	if strings.HasPrefix(target, "<") && strings.HasSuffix(target, ">") && len(target) >= 2 {
		target = strings.TrimSpace(target[1 : len(target)-1])
	}
	if !validTarget(target) {
		return "", "", false
	}
	return target, s[end+1:], true
}

// validTarget accepts a relative path to a markdown file: no scheme, no
// drive, not absolute, no spaces.
func validTarget(t string) bool {
	if len(t) <= len(".md") || !strings.EqualFold(t[len(t)-3:], ".md") {
		return false
	}
	if t[0] == '/' || t[0] == '\\' || t[0] == '#' || t[0] == '<' {
		return false
	}
	// One pass, no allocation: the index of 10,000 entries is parsed on
	// every add.
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == ':' || c == '<' || c == '>':
			return false
		case c == ' ' || c-'\t' <= '\r'-'\t': // ASCII space: \t \n \v \f \r
			return false
		case c < utf8.RuneSelf:
		default:
			r, size := utf8.DecodeRuneInString(t[i:])
			if unicode.IsSpace(r) {
				return false
			}
			i += size - 1
		}
	}
	return true
}

// parseHook strips one separator from what follows the link.
func parseHook(rest string) string {
	rest = strings.TrimSpace(rest)
	for _, sep := range []string{"—", "–", "-", ":"} {
		if strings.HasPrefix(rest, sep) {
			return strings.TrimSpace(rest[len(sep):])
		}
	}
	return rest
}

// lineKind is what a line of MEMORY.md is.
type lineKind int

const (
	kindText lineKind = iota
	kindBlank
	kindHeading
	kindEntry
	kindComment
	kindCode
	kindRule
)

// classify tells each line's kind, following HTML comments and fenced code
// blocks across lines; nothing inside them is an entry. entries holds the
// entry of each entry line. open is the first line of a comment or code
// block still open at the end, len(raws) if none.
func classify(raws []string) (kinds []lineKind, entries []Entry, open int) {
	kinds = make([]lineKind, len(raws))
	entries = make([]Entry, len(raws))
	inComment := false
	fence := ""
	open = len(raws)
	for i, raw := range raws {
		if !inComment && fence == "" {
			open = i
		}
		t := strings.TrimSpace(raw)
		switch {
		case inComment:
			kinds[i] = kindComment
			inComment = !strings.Contains(t, "-->")
		case fence != "":
			kinds[i] = kindCode
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "<!--"):
			kinds[i] = kindComment
			inComment = !strings.Contains(t[4:], "-->")
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			kinds[i] = kindCode
			fence = t[:3]
		case t == "":
			kinds[i] = kindBlank
		case headingLevel(t) > 0:
			kinds[i] = kindHeading
		case isRule(t):
			kinds[i] = kindRule
		default:
			if e, ok := parseEntry(raw); ok {
				kinds[i] = kindEntry
				entries[i] = e
			}
		}
	}
	if !inComment && fence == "" {
		open = len(raws)
	}
	return kinds, entries, open
}

// headingLevel returns the level of an ATX heading, 0 if t is none.
func headingLevel(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return 0
	}
	return n
}

// isRule reports a thematic break or a setext underline: three or more of
// one of "-=*_", spaces allowed.
func isRule(t string) bool {
	c := t[0]
	if strings.IndexByte("-=*_", c) < 0 {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// headingNames reports whether heading line raw names type t ("## Feedback",
// "# User memories", "## References"), in any case.
func headingNames(raw string, t typesx.Type) bool {
	if t == "" {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(raw), func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		if w == string(t) || w == string(t)+"s" {
			return true
		}
	}
	return false
}
