package dream

import (
	"regexp"
	"strings"
	"sync"
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
var filler = lazyre.New(`(?i)^\s*(remember that|remember:|note that|note:|nb:|fyi:?|til:?|todo:|reminder:|important:)(\s+|$)`)

func stripFiller(s string) string { return filler().ReplaceAllString(s, "") }

// deriveName makes a topic name for an entry without a title, as a
// person would name the note: the first clause, without a lead-in
// ("remember that", "fyi", "always"), then the subject up to its verb
// ("the deploy script lives in ..." is "Deploy script"). A one-word
// subject keeps its verb and what follows ("Postgres runs on port
// 5433"), and a note with no subject (an imperative) is named by its
// first words. At most five words (six for a whole clause or subject),
// whole words only, never ending on a small word; capitalised.
// TestCapturedNames measures it against the names people gave notes.
func deriveName(text string) string {
	s := stripFiller(firstLine(strings.TrimSpace(text)))
	for {
		t := nameLeadIn().ReplaceAllString(s, "")
		if t == s || strings.TrimSpace(t) == "" {
			break
		}
		s = t
	}
	if m := nameStop().FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]]
	}
	words := nameWords(strings.Fields(s))
	s = strings.Trim(strings.Join(words, " "), " ,-")
	if s == "" {
		return "Note"
	}
	return capitalizeName(s)
}

// nameWords picks a name's words from a note's first clause.
func nameWords(words []string) []string {
	v := verbAt(words)
	subject := words
	if v > 0 {
		subject = words[:v]
	}
	for len(subject) > 1 && determiner()[strings.ToLower(subject[0])] {
		subject = subject[1:]
	}
	switch {
	case v <= 0 || pronoun()[strings.ToLower(subject[0])]:
		// No subject, or one that says nothing alone: the first words.
		return cutWords(words, 5, 6)
	case len(subject) == 1:
		// "Postgres runs on port 5433": one word alone says too little.
		return cutWords(words[v-1:], 5, 5)
	case len(subject) <= 6:
		return subject
	}
	// A long subject ends before its first preposition past two words.
	for i := 2; i < 6; i++ {
		if preposition()[strings.ToLower(subject[i])] {
			return subject[:i]
		}
	}
	return cutWords(subject, 5, 5)
}

// cutWords keeps the first n words, or all of them when they are at most
// whole, and drops small words from the end.
func cutWords(words []string, n, whole int) []string {
	if len(words) > whole {
		words = words[:n]
	}
	for len(words) > 1 {
		if last := strings.ToLower(strings.Trim(words[len(words)-1], ",;:")); !tokenize.IsStopWord(last) && !preposition()[last] {
			break
		}
		words = words[:len(words)-1]
	}
	return words
}

// verbAt is the index of the word where a clause's predicate starts: an
// auxiliary, an adverb in front of a verb or a common verb, -1 for none.
// A verb form that another verb follows ("staging deploys always need",
// "the iOS build requires") is a noun of the subject; a verb's plain
// form counts only after a plural ("the integration tests need").
func verbAt(words []string) int {
	for i, w := range words {
		lw := strings.ToLower(strings.Trim(w, ",;:"))
		switch {
		case auxiliary()[lw] || verbAdverb()[lw]:
			return i
		case verbS()[lw]:
			if i+1 < len(words) && isVerbish(words[i+1]) {
				continue
			}
			return i
		case i >= 2 && determiner()[strings.ToLower(words[0])] && looksThirdPerson(lw) &&
			i+1 < len(words) && (determiner()[strings.ToLower(words[i+1])] || preposition()[strings.ToLower(words[i+1])]):
			// "the release train leaves on Fridays": a clause that starts
			// with a noun phrase has a verb in -s before "on" or "the".
			return i
		case verbPlain()[lw] && i > 0 && strings.HasSuffix(strings.ToLower(words[i-1]), "s"):
			if i+1 < len(words) && isVerbish(words[i+1]) {
				continue
			}
			return i
		}
	}
	return -1
}

// looksThirdPerson reports whether a word could be a verb's -s form.
func looksThirdPerson(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

func isVerbish(w string) bool {
	lw := strings.ToLower(w)
	return auxiliary()[lw] || verbAdverb()[lw] || verbS()[lw] || verbPlain()[lw]
}

// capitalizeName capitalises a name's first letter, unless its first word
// is spelt with capitals inside (iOS, eBay, gRPC).
func capitalizeName(s string) string {
	first, _, _ := strings.Cut(s, " ")
	if strings.ToLower(first) != first {
		if r, _ := utf8.DecodeRuneInString(first); unicode.IsLower(r) {
			return s
		}
	}
	return capitalize(s)
}

// nameLeadIn is what a note starts with that its name leaves out, beyond
// the filler: "remember", "always", "please", "heads up", "we".
var nameLeadIn = lazyre.New(`(?i)^\s*(remember( to)?|don't forget( to| that)?|heads up:?|fyi|til|please|make sure( that)?|be sure to|always|we|so)\s+`)

// nameStop ends the clause a name is taken from: at a word's end, never
// inside one ("fn(x)" stays whole), but at a dash.
var nameStop = lazyre.New(`[.;!?](\s|$)|[,:]\s|\s\(|—|\s-\s|\s(https?://|www\.)`)

// wordSet returns the set of s's words, built on first use.
func wordSet(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(s) {
			m[w] = true
		}
		return m
	})
}

var (
	determiner  = wordSet("the a an our my your their this these those its")
	pronoun     = wordSet("i i'm i've i'd it it's this that there they he she you we everything something nothing")
	preposition = wordSet("of for in on at from with without to by about under over into per via across within")
	auxiliary   = wordSet("is are was were be been am has have had must should shall will would can could may might cannot can't won't isn't aren't wasn't weren't doesn't don't didn't does do did gets got")
	verbAdverb  = wordSet("always never only usually mostly still also now often sometimes rarely just automatically no")
	verbS       = wordSet("lives owns uses requires needs runs talks takes holds fails breaks caches deploys hands times starts ends goes sends reads writes calls returns points depends expects handles stores keeps ignores shares retries works means contains includes supports blocks builds ships wipes loads expires covers gives makes lets sits stays belongs applies triggers pulls pushes syncs waits serves hits accepts rejects creates generates moved changed switched replaced became talked ran broke started")
	verbPlain   = wordSet("need run use require take hold fail break go send read write call return point depend expect handle store keep ignore share retry work mean contain include support block build ship live own talk deploy cache hit")
)

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
