package reldate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// span is a half-open byte range [s, e) of the text.
type span struct{ s, e int }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// Runes that glue a phrase to a word on their other side (today.md,
// Monday's, sunday-school, docs/today) or, before a phrase, mark it as a
// flag, path, tag or variable (--today, /today, #today, $today).
const (
	joinAfter  = "-/\\@#$=~&+%^|'’._"
	joinBefore = "-/\\.@#$_=~&+%^|"
)

// okBefore reports whether a phrase may start at i.
func okBefore(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, n := utf8.DecodeLastRuneInString(text[:i])
	if isWordRune(r) || strings.ContainsRune(joinBefore, r) {
		return false
	}
	if r == '\'' || r == '’' {
		p, _ := utf8.DecodeLastRuneInString(text[:i-n])
		return !isWordRune(p)
	}
	return true
}

// okAfter reports whether a phrase may end at e.
func okAfter(text string, e int) bool {
	if e == len(text) {
		return true
	}
	r, n := utf8.DecodeRuneInString(text[e:])
	if isWordRune(r) {
		return false
	}
	if strings.ContainsRune(joinAfter, r) && e+n < len(text) {
		q, _ := utf8.DecodeRuneInString(text[e+n:])
		return !isWordRune(q)
	}
	return true
}

// isISODate reports whether s starts with YYYY-MM-DD.
func isISODate(s string) bool {
	if len(s) < 10 {
		return false
	}
	for i := 0; i < 10; i++ {
		if (i == 4 || i == 7) != (s[i] == '-') || (i != 4 && i != 7 && !isDigit(s[i])) {
			return false
		}
	}
	return true
}

func skipBlanks(text string, k int) int {
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	return k
}

func skipBlanksBack(text string, k int) int {
	for k > 0 && (text[k-1] == ' ' || text[k-1] == '\t') {
		k--
	}
	return k
}

// dateAfter reports whether an ISO date follows e, as in "Friday
// (2026-11-27)": the phrase was resolved already.
func dateAfter(text string, e int) bool {
	k := skipBlanks(text, e)
	if k < len(text) && strings.IndexByte("(,[:", text[k]) >= 0 {
		k = skipBlanks(text, k+1)
	}
	return isISODate(text[k:])
}

// dateBefore reports whether an ISO date ends right before s, as in
// "2026-11-26 (Thursday)".
func dateBefore(text string, s int) bool {
	k := skipBlanksBack(text, s)
	if k > 0 && strings.IndexByte("(,[", text[k-1]) >= 0 {
		k = skipBlanksBack(text, k-1)
	}
	return k >= 10 && isISODate(text[k-10:k])
}

// prevWord returns the lowercased word of ASCII letters before s, across
// blanks and at most one line break, or "" when there is none.
func prevWord(text string, s int) string {
	k := skipBlanksBack(text, s)
	if k > 0 && text[k-1] == '\n' {
		k--
		if k > 0 && text[k-1] == '\r' {
			k--
		}
		k = skipBlanksBack(text, k)
	}
	e := k
	for k > 0 && isAlnum(text[k-1]) && !isDigit(text[k-1]) {
		k--
	}
	if k == e || (k > 0 && isAlnum(text[k-1])) {
		return ""
	}
	return lower(text[k:e])
}

// lower lowercases ASCII letters; it allocates only when there are some.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// flagBefore reports whether the word before s is a command-line option
// such as --since or -d, whose argument the phrase would be.
func flagBefore(text string, s int) bool {
	k := skipBlanksBack(text, s)
	if k == s {
		return false // no blank: the phrase is glued to what precedes it
	}
	e := k
	for k > 0 && text[k-1] != ' ' && text[k-1] != '\t' && text[k-1] != '\n' {
		k--
	}
	return e-k >= 2 && text[k] == '-' && (isAlnum(text[k+1]) || text[k+1] == '-')
}
