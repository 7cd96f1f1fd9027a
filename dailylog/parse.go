package dailylog

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/typesx"
)

const bom = "\ufeff"

// pending is an entry whose lines are still being read.
type pending struct {
	line       int
	start, end int64
	head       string   // the first line after the bullet, or a whole stray line
	stray      bool     // not a bullet: the head is all text
	cont       []string // continuation lines as written, blank ones as ""
	blanks     int      // blank lines since the last content line
}

type parser struct {
	file     string
	fileDate string
	date     string
	cur      *pending
	entries  []Entry
	problems []Problem
}

// Parse reads the entries of one daily log. file names it in entries and
// problems (it is not opened) and, when its base name is YYYY-MM-DD.md,
// gives the date until a "# YYYY-MM-DD" heading says otherwise.
//
// Parse never fails. It takes "- ", "* ", "+ " and "1. " or "1) " bullets;
// continuation lines are the following lines indented by a space or a tab,
// including blank lines between them. A line that is neither a bullet, a
// heading, a thematic break nor a continuation is stray text: it becomes an
// untyped entry of its own and a Problem. Empty bullets are skipped with a
// Problem. CRLF line ends, byte order marks at line starts and a missing
// final newline are fine.
func Parse(data []byte, file string) ([]Entry, []Problem) {
	p := &parser{file: file, fileDate: dateOfFile(file)}
	p.date = p.fileDate
	session := sessionDate(file) != "" && !validDate(strings.TrimSuffix(filepath.Base(file), ".md"))
	var off int64
	for num := 1; len(data) > 0; num++ {
		n := bytes.IndexByte(data, '\n') + 1
		if n == 0 {
			n = len(data)
		}
		text := strings.TrimSuffix(string(data[:n]), "\n")
		text = strings.TrimSuffix(text, "\r")
		text = strings.TrimPrefix(text, bom)
		if session {
			text = sessionLine(text)
		}
		p.line(num, off, off+int64(n), text)
		data = data[n:]
		off += int64(n)
	}
	p.flush()
	return p.entries, p.problems
}

func (p *parser) problem(line int, msg string) {
	p.problems = append(p.problems, Problem{File: p.file, Line: line, Message: msg})
}

// line takes one line: s without its line ending, at bytes [start, end).
func (p *parser) line(num int, start, end int64, s string) {
	if isBlank(s) {
		if p.cur != nil {
			p.cur.blanks++
		}
		return
	}
	if s[0] == ' ' || s[0] == '\t' {
		if c := p.cur; c != nil {
			for ; c.blanks > 0; c.blanks-- {
				c.cont = append(c.cont, "")
			}
			c.cont = append(c.cont, s)
			c.end = end
			return
		}
		s = strings.TrimLeft(s, " \t")
	}
	p.flush()
	if level, rest := heading(s); level > 0 {
		p.heading(num, rest)
		return
	}
	if isBreak(s) {
		return
	}
	c := &pending{line: num, start: start, end: end}
	if rest, ok := bulletRest(s); ok {
		c.head = rest
	} else {
		c.head, c.stray = s, true
		p.problem(num, "stray text kept as an untyped entry")
	}
	p.cur = c
}

// heading takes a heading's text: a date there dates the entries below.
func (p *parser) heading(num int, text string) {
	fields := strings.Fields(text)
	if len(fields) == 0 || !validDate(fields[0]) {
		return
	}
	p.date = fields[0]
	if p.fileDate != "" && p.date != p.fileDate {
		p.problem(num, "heading date "+p.date+" differs from the file name's "+p.fileDate)
	}
}

// flush turns the pending entry, if any, into an Entry.
func (p *parser) flush() {
	c := p.cur
	if c == nil {
		return
	}
	p.cur = nil
	e := Entry{Date: p.date, File: p.file, Line: c.line, Offset: c.start, End: c.end}
	head := trimSpace(c.head)
	if c.stray {
		e.Text = head
	} else {
		e.Time, e.Type, e.Title, e.Text = parseHeader(head)
	}
	e.Text = buildText(e.Text, c.cont)
	if e.Time == "" && e.Type == "" && e.Title == "" && e.Text == "" {
		p.problem(c.line, "empty entry skipped")
		return
	}
	e.Hash = Hash(e)
	p.entries = append(p.entries, e)
}

// buildText joins an entry's first-line text and its continuation lines.
// When the first line holds no text, the first continuation line takes its
// place, so that Format, which writes text from the bullet line on, reads
// back the same.
func buildText(first string, cont []string) string {
	if first == "" {
		for len(cont) > 0 && cont[0] == "" {
			cont = cont[1:]
		}
		if len(cont) == 0 {
			return ""
		}
		first, cont = trimSpace(cont[0]), cont[1:]
	}
	lines := dedent(cont)
	if len(lines) == 0 {
		return first
	}
	return first + "\n" + strings.Join(lines, "\n")
}

// dedent removes the indentation all non-blank lines share and any trailing
// space.
func dedent(lines []string) []string {
	minIndent := -1
	for _, l := range lines {
		if l == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " \t")); minIndent < 0 || n < minIndent {
			minIndent = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if l != "" {
			out[i] = strings.TrimRight(l[minIndent:], " \t\r")
		}
	}
	return out
}

// parseHeader splits a bullet's first line into its optional time, type
// and title and the text that follows them.
func parseHeader(s string) (tm string, typ typesx.Type, title, text string) {
	if t, rest, ok := cutTime(s); ok {
		tm, s = t, rest
	}
	if t, rest, ok := cutType(s); ok {
		typ, s = t, rest
	}
	if !strings.HasPrefix(s, "[") { // an unknown [word] stays in the text
		if t, rest, ok := cutTitle(s); ok {
			title, s = t, rest
		}
	}
	return tm, typ, title, trimLeft(strings.TrimPrefix(s, `\`))
}

// cutTime takes a leading "H:MM", "HH:MM" or "HH:MM:SS" followed by a space
// or the end, and returns it with a two-digit hour.
func cutTime(s string) (tm, rest string, ok bool) {
	i := 0
	for i < len(s) && i < 2 && isDigit(s[i]) {
		i++
	}
	if i == 0 {
		return "", s, false
	}
	h := s[:i]
	n := i
	if !twoDigitsAfterColon(s, n, 60) {
		return "", s, false
	}
	n += 3
	if twoDigitsAfterColon(s, n, 60) {
		n += 3
	}
	if n < len(s) && !isSpace(s[n]) || atoi(h) > 23 {
		return "", s, false
	}
	tm = s[i:n]
	if len(h) == 1 {
		h = "0" + h
	}
	return h + tm, trimLeft(s[n:]), true
}

// twoDigitsAfterColon reports whether s[i:] starts with ":" and two digits
// below limit.
func twoDigitsAfterColon(s string, i, limit int) bool {
	return i+3 <= len(s) && s[i] == ':' && isDigit(s[i+1]) && isDigit(s[i+2]) && atoi(s[i+1:i+3]) < limit
}

// cutType takes a leading "[type]" naming one of the content types.
func cutType(s string) (typesx.Type, string, bool) {
	if !strings.HasPrefix(s, "[") {
		return "", s, false
	}
	end := strings.IndexByte(s, ']')
	if end < 0 || end+1 < len(s) && !isSpace(s[end+1]) {
		return "", s, false
	}
	t, err := typesx.Parse(s[1:end])
	if err != nil {
		return "", s, false
	}
	return t, trimLeft(s[end+1:]), true
}

// cutTitle takes a leading title: "**any text**:" or "**any text:**", or a
// short phrase before ": " with no sentence punctuation.
func cutTitle(s string) (title, rest string, ok bool) {
	if title, rest, ok := cutBoldTitle(s); ok {
		return title, rest, true
	}
	i := 0
	for ; i < len(s); i++ {
		if s[i] == ':' && (i+1 == len(s) || isSpace(s[i+1])) {
			break
		}
	}
	if i == len(s) {
		return "", s, false
	}
	title = normTitle(s[:i])
	if !plainTitle(title) {
		return "", s, false
	}
	return title, trimLeft(s[i+1:]), true
}

// normTitle puts titles on one line without surrounding space.
func normTitle(s string) string {
	return trimSpace(lineBreaks.Replace(s))
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// maxTitle is the most runes a title without bold markers may have.
const maxTitle = 80

// plainTitle reports whether s reads as a title rather than a sentence.
func plainTitle(s string) bool {
	if s == "" || strings.ContainsRune(`[\*`+"`", rune(s[0])) || len([]rune(s)) > maxTitle {
		return false
	}
	if strings.ContainsAny(s, "!?;`") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '.' && (i+1 == len(s) || isSpace(s[i+1])) {
			return false
		}
	}
	return true
}

// cutBoldTitle takes "**title**:" or "**title:**" followed by a space or
// the end; "\" escapes the next byte inside.
func cutBoldTitle(s string) (title, rest string, ok bool) {
	if !strings.HasPrefix(s, "**") {
		return "", s, false
	}
	var b strings.Builder
	for i := 2; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			b.WriteByte(s[i])
			continue
		}
		closing := strings.HasPrefix(s[i:], "**:") || strings.HasPrefix(s[i:], ":**")
		if closing && (i+3 == len(s) || isSpace(s[i+3])) {
			title = normTitle(b.String())
			if title == "" {
				return "", s, false
			}
			return title, trimLeft(s[i+3:]), true
		}
		b.WriteByte(s[i])
	}
	return "", s, false
}

// heading returns a markdown ATX heading's level (0 if s is none) and text.
func heading(s string) (int, string) {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(s) && !isSpace(s[n]) {
		return 0, ""
	}
	return n, trimSpace(s[n:])
}

// isBreak reports whether s is a thematic break such as "---" or "* * *".
func isBreak(s string) bool {
	s = strings.TrimRight(s, " \t\r")
	if s == "" || !strings.ContainsRune("-*_", rune(s[0])) {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// bulletRest returns what follows a list marker: "-", "*", "+", or up to
// nine digits and "." or ")", then a space or the end of the line.
func bulletRest(s string) (string, bool) {
	n := 0
	switch {
	case s[0] == '-' || s[0] == '*' || s[0] == '+':
		n = 1
	case isDigit(s[0]):
		for n < len(s) && n < 10 && isDigit(s[n]) {
			n++
		}
		if n == 10 || n == len(s) || s[n] != '.' && s[n] != ')' {
			return "", false
		}
		n++
	default:
		return "", false
	}
	if n < len(s) && !isSpace(s[n]) {
		return "", false
	}
	return s[n:], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func isBlank(s string) bool { return strings.Trim(s, " \t\r") == "" }

func trimLeft(s string) string  { return strings.TrimLeft(s, " \t") }
func trimSpace(s string) string { return strings.TrimRight(trimLeft(s), " \t\r") }

// atoi converts a short string of digits.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// sessionLine reads a line of a per-session log, prefix-coded as Claude
// Code's dream describes it: "> " the user (an entry), "< " the assistant
// and ". " a tool call (both dropped). Claude Code's dream hands these
// lines to a model that picks what is worth keeping; a distiller without
// one would keep every "< Done." as a topic, so only what the person said
// is an entry.
func sessionLine(text string) string {
	switch {
	case strings.HasPrefix(text, "> "):
		return "- " + text[2:]
	case strings.HasPrefix(text, ". "), strings.HasPrefix(text, "< "), text == ".", text == "<", text == ">":
		return ""
	}
	return text
}
