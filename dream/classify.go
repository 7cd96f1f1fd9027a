package dream

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/tokenize"
	"github.com/memdir/memdir/typesx"
)

// typeRule gives an untyped entry a type when its pattern matches the
// entry's title and text. Rules are tried in order; the first match wins
// and project is the fallback.
type typeRule struct {
	Type typesx.Type `json:"type"`
	Rule string      `json:"rule"`
	re   func() *regexp.Regexp
}

// TypeRules are the built-in distiller's rules for untyped entries, in
// the order they are tried. The external distiller receives them too.
var TypeRules = []typeRule{
	{Type: typesx.User, Rule: `the person speaks about themselves: "I am", "I'm a", "I prefer", "I like", "my role", "my background", "I'm new to", "the user is/prefers"`,
		re: lazyre.New(`(?i)(^|[^a-z])(i am|i'm|i've been|i prefer|i like|i usually|i work|i use|i know|my role|my background|my team|my preference|the user (is|prefers|likes|wants))\b`)},
	{Type: typesx.Feedback, Rule: `guidance on how to work: starts with always, never, don't, do not, avoid, prefer, please, stop, make sure, remember to, use; or says should, must, should not`,
		re: lazyre.New(`(?i)^(\W*)(always|never|don'?t|do not|avoid|prefer|please|stop|make sure|remember to|be sure to|use|keep|run)\b|\b(should|must|shouldn'?t|mustn'?t|ought to)\b`)},
	{Type: typesx.Reference, Rule: `points somewhere outside the code: a URL, or dashboard, runbook, docs, wiki, ticket, channel, board, Grafana, Jira, Confluence, Notion, Slack, "lives in", "found at"`,
		re: lazyre.New(`(?i)(https?://|\b(dashboards?|runbooks?|docs|documentation|wiki|tickets?|channel|board|grafana|jira|confluence|notion|slack|sentry|datadog|lives in|found at|is at|are at)\b|(^|\s)#[a-z][\w-]+)`)},
}

// classify returns the type of an untyped entry and the rule that chose
// it ("" for the project fallback).
func classify(title, text string) (typesx.Type, string) {
	s := strings.TrimSpace(title + " " + text)
	if title != "" {
		s = strings.TrimSpace(title + ": " + text)
	}
	body := strings.TrimSpace(stripFiller(text))
	for _, r := range TypeRules {
		if r.Type == typesx.Feedback {
			// The imperative must start the text itself, not the title.
			if r.re().MatchString(body) {
				return r.Type, string(r.Type)
			}
			continue
		}
		if r.re().MatchString(s) {
			return r.Type, string(r.Type)
		}
	}
	return typesx.Project, ""
}

// filler is what people put in front of a note that says nothing itself.
var filler = lazyre.New(`(?i)^\s*(remember that|remember:|note that|note:|nb:|fyi:?|til:?|todo:|reminder:|important:)\s*`)

func stripFiller(s string) string { return filler().ReplaceAllString(s, "") }

// deriveName makes a topic name for an entry without a title: the first
// clause of its text without filler or a URL, at most six words, without
// trailing small words, capitalised.
func deriveName(text string) string {
	s := stripFiller(firstLine(strings.TrimSpace(text)))
	if m := nameStop().FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]]
	}
	words := strings.Fields(s)
	if len(words) > 6 {
		words = words[:6]
	}
	for len(words) > 1 && tokenize.IsStopWord(strings.ToLower(words[len(words)-1])) {
		words = words[:len(words)-1]
	}
	s = strings.Trim(strings.Join(words, " "), " ,-")
	if s == "" {
		return "Note"
	}
	return capitalize(s)
}

// nameStop ends the clause a name is taken from.
var nameStop = lazyre.New(`[.;!?](\s|$)|[,:]\s|[(—]|\s-\s|\s(https?://|www\.)`)

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// tidyText drops the filler in front of a note ("remember that") and
// capitalises what is left.
func tidyText(s string) string {
	t := stripFiller(s)
	if t == s || strings.TrimSpace(t) == "" {
		return s
	}
	return capitalize(t)
}

// cleanName makes any title usable as a topic name: no slashes, no "..",
// no control characters, at most 100 runes.
func cleanName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\':
			return '-'
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, name)
	for strings.Contains(name, "..") {
		name = strings.ReplaceAll(name, "..", ".")
	}
	name = squash(name)
	if r := []rune(name); len(r) > 100 {
		name = strings.TrimSpace(string(r[:100]))
	}
	if name == "" {
		return "Note"
	}
	return name
}

// Untyped is what the built-in distiller makes of a note that came with no
// type and no title: the text without the filler in front of it ("remember
// that"), its type by TypeRules (project when no rule matches) and a topic
// name derived from its first clause. `memdir capture` calls it, so that a
// note remembered from a prompt is typed and named as the dream would.
func Untyped(text string) (typ typesx.Type, name, tidy string) {
	tidy = tidyText(strings.TrimSpace(text))
	typ, _ = classify("", tidy)
	return typ, cleanName(deriveName(tidy)), tidy
}

// Classify gives an untyped memory its type by TypeRules, the rules the
// built-in distiller applies: every way into memory that must infer a
// type (an import, say) asks here.
func Classify(title, text string) typesx.Type {
	t, _ := classify(title, text)
	return t
}
