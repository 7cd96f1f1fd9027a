package dailylog

import (
	"strings"

	"github.com/memdir/memdir/typesx"
)

// Format returns e as log lines: "- 10:04 [feedback] Title: text\n" with
// the missing parts left out and every further line of the text indented by
// two spaces (blank lines kept empty). Date, File, Line, offsets and Hash are
// not written.
//
// Format writes what Parse reads back as the same time, type, title and text
// for every entry Parse returns, and for any entry with a valid time and
// type. To get there it tidies e first (newlines in the title become
// spaces; surrounding space and trailing blank lines go) and, only when
// needed, writes the title as "**title**:" with "\" before "\" and "*", and
// puts one "\" before a text that would otherwise be misread.
func Format(e Entry) string {
	title := normTitle(e.Title)
	lines := strings.Split(e.Text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	for len(lines) > 0 && trimLeft(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	first := ""
	if len(lines) > 0 {
		first, lines = trimLeft(lines[0]), lines[1:]
	}
	tm := e.Time
	if t, rest, ok := cutTime(tm); ok && rest == "" {
		tm = t
	}
	typ := e.Type
	if t, err := typesx.Parse(string(typ)); err == nil {
		typ = t
	}
	var b strings.Builder
	b.WriteString(formatHeader(tm, string(typ), title, first))
	b.WriteByte('\n')
	for _, l := range lines {
		if trimLeft(l) != "" {
			b.WriteString("  ")
			b.WriteString(l)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// formatHeader returns the bullet line, without its newline, in the
// plainest form that Parse reads back as the given parts.
func formatHeader(tm, typ, title, text string) string {
	var fixed []string
	if tm != "" {
		fixed = append(fixed, tm)
	}
	if typ != "" {
		fixed = append(fixed, "["+typ+"]")
	}
	titles := []string{""}
	if title != "" {
		titles = []string{title + ":", "**" + escapeBold(title) + "**:"}
	}
	var line string
	for _, ti := range titles {
		for _, tx := range []string{text, `\` + text} {
			line = joinHeader(fixed, ti, tx)
			if readsBack(line, tm, typ, title, text) {
				return line
			}
		}
	}
	return line // the most guarded form; parts that are invalid stay as text
}

func joinHeader(fixed []string, title, text string) string {
	parts := append(append([]string(nil), fixed...), title, text)
	var nonEmpty []string
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	if len(nonEmpty) == 0 {
		return "-"
	}
	return "- " + strings.Join(nonEmpty, " ")
}

// readsBack reports whether Parse reads the bullet line back as the parts.
func readsBack(line, tm, typ, title, text string) bool {
	if isBreak(line) {
		return false
	}
	gotTime, gotType, gotTitle, gotText := parseHeader(trimSpace(line[1:]))
	return gotTime == tm && string(gotType) == typ && gotTitle == title && gotText == text
}

// escapeBold puts "\" before the bytes that would end a bold title early.
func escapeBold(s string) string {
	return boldEscaper.Replace(s)
}

var boldEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`)
