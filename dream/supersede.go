package dream

import (
	"regexp"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/memdir"
)

// Supersede rules: a new fact replaces an older paragraph of the same
// topic when
//
//   - it says "instead of X", "rather than X", "in place of X",
//     "no longer X", "replaces X", "replaced X", "supersedes X" or
//     "X is replaced by ...", and an older paragraph mentions every
//     content word of X (the one sharing most words with the new fact
//     goes); or
//   - it sets a key to a value ("Deploy day: Thursday", "Deploy day =
//     Thursday", "Deploy day is now Thursday", "Deploy day changed to
//     Thursday", "Deploy day moved to Thursday"), and an older paragraph
//     sets the same key ("Deploy day: Tuesday", "The deploy day is
//     Tuesday"); an entry titled like its topic whose text starts with
//     "now" ("Staging URL: now https://...") sets the key its title names,
//     and in a topic that holds a single paragraph replaces it; or
//   - it moves a subject to a date ("Freeze moved to 2026-12-10",
//     "The launch is postponed until next Friday", "Retro is now on
//     Thursday"), and exactly one older paragraph mentions every content
//     word of the subject with a date of its own ("Merge freeze starts
//     Thursday 2026-11-26"); among several, the one sharing most words
//     with the new fact, and none on a tie.

var (
	markerAfter  = lazyre.New(`(?i)\b(instead of|rather than|in place of|no longer|replaces|replaced|supersedes|superseded)\s+(.+)`)
	markerBefore = lazyre.New(`(?i)^(.+?)\s+(is|are|was|were|has been|have been)\s+(replaced|superseded)\s+by\b`)
	keyColon     = lazyre.New(`^\s*(?:\*\*)?([A-Za-z][\w .'-]{0,60}?)(?:\*\*)?\s*(?::\s|=)\s*(\S.*)$`)
	keyNow       = lazyre.New(`(?i)^\s*(.{1,60}?)\s+(?:is now|are now|now is|now are|changed to|has changed to|moved to|has moved to|is moving to|switched to|has switched to)\s+(\S.*)$`)
	keyCopula    = lazyre.New(`(?i)^\s*(.{1,60}?)\s+(?:is|are|was|were|=|:)\s+\S`)
	nowStart     = lazyre.New(`(?i)^\s*(is\s+)?now\b`)
	// dateMoves are the ways a fact moves its subject (group 1) to a
	// day (group 2).
	dateMoves = []func() *regexp.Regexp{
		lazyre.New(`(?i)^\s*(.{1,60}?)\s+(?:(?:has been|have been|was|were|is|are|got|gets|has|have)\s+)?(?:moved|postponed|pushed(?: back| out)?|delayed|rescheduled|shifted|slipped|bumped|brought forward|changed)\s+(?:back\s+)?(?:to|until|till|for)\s+(\S.*)$`),
		lazyre.New(`(?i)^\s*(.{1,60}?)\s+(?:is|are)\s+now\s+(\S.*)$`),
		lazyre.New(`(?i)^\s*(.{1,60}?)\s+now\s+(?:starts|begins|ends|happens|falls|lands|is due|are due)\s+(\S.*)$`),
	}
	// aDate is a day, absolute or relative, as a fact names it.
	aDate = lazyre.New(`(?i)\b(\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?|\d{1,2}(st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*|(mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|(next|this|last)\s+(week|month|quarter|year|sprint)|in\s+\d+\s+(days|weeks|months)|end of (the )?(week|month|quarter|year)|q[1-4])\b`)
	// startsWithDate is a value that is a day: "2026-12-10", "on Friday",
	// "the 10th of December", "next week".
	startsWithDate = lazyre.New(`(?i)^(?:on\s+|the\s+|around\s+|early\s+|late\s+)?(\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(st|nd|rd|th)?|\d{1,2}(st|nd|rd|th)?\s+(of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)|(next\s+|this\s+)?(mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|(next|this)\s+(week|month|quarter|year|sprint)|in\s+\d+\s+(days|weeks|months)|end of (the )?(week|month|quarter|year)|q[1-4])\b`)
)

// notKeys are words before a colon that introduce a note, not a key.
var notKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"note": true, "todo": true, "why": true, "how": true, "how to apply": true, "tip": true,
		"fyi": true, "update": true, "important": true, "reminder": true, "remember": true,
		"nb": true, "ps": true, "see": true, "example": true, "eg": true, "warning": true,
		"http": true, "https": true, "til": true, "context": true, "reason": true,
	}
})

// normKey makes a key comparable: its content words in order.
func normKey(k string) string { return strings.Join(memdir.TermList(k), " ") }

// keyOf returns the key a fact sets, or "".
func keyOf(fact string) string {
	line := firstLine(fact)
	if m := keyNow().FindStringSubmatch(line); m != nil {
		if k := normKey(m[1]); k != "" && len(strings.Fields(k)) <= 6 {
			return k
		}
	}
	if m := keyColon().FindStringSubmatch(line); m != nil {
		k := normKey(m[1])
		if k != "" && !notKeys()[strings.ToLower(strings.TrimSpace(m[1]))] && len(strings.Fields(k)) <= 5 {
			return k
		}
	}
	return ""
}

// setsKey reports whether an older paragraph sets key, by the strict
// patterns or as "<key> is ...".
func setsKey(para, key string) bool {
	if key == "" {
		return false
	}
	if keyOf(para) == key {
		return true
	}
	if m := keyCopula().FindStringSubmatch(firstLine(para)); m != nil {
		return normKey(m[1]) == key
	}
	return false
}

// replacedWords returns the content words of what a fact says it
// replaces, or nil.
func replacedWords(fact string) memdir.Terms {
	line := squash(fact)
	if m := markerBefore().FindStringSubmatch(line); m != nil {
		return memdir.TermsOf(clause(m[1], true))
	}
	if m := markerAfter().FindStringSubmatch(line); m != nil {
		return memdir.TermsOf(clause(m[2], false))
	}
	return nil
}

// clause cuts s at the first punctuation that ends a clause (or, with
// last, keeps what follows the last one).
func clause(s string, last bool) string {
	const stops = ".;,!?()"
	if last {
		if i := strings.LastIndexAny(s, stops); i >= 0 {
			return s[i+1:]
		}
		return s
	}
	if i := strings.IndexAny(s, stops); i >= 0 {
		return s[:i]
	}
	return s
}

// supersedes returns the index of the paragraph of paras that the new
// fact replaces, or -1. titleKey is the entry's title when its text starts
// with "now"; topicName is the name of the topic the fact goes into.
func supersedes(fact string, facts []memdir.Terms, paras []string, titleKey, topicName string) int {
	newWords := memdir.TermsOf(fact)
	if x := replacedWords(fact); len(x) > 0 {
		best, bestShared := -1, -1
		for i, pw := range facts {
			if !containsAll(pw, x) || squash(paras[i]) == squash(fact) {
				continue
			}
			if s := shared(pw, newWords); s > bestShared {
				best, bestShared = i, s
			}
		}
		if best >= 0 {
			return best
		}
	}
	key := keyOf(fact)
	if key == "" && titleKey != "" && nowStart().MatchString(fact) {
		key = normKey(titleKey)
		if key == normKey(topicName) && len(paras) == 1 && squash(paras[0]) != squash(fact) {
			return 0
		}
	}
	if key != "" {
		for i := len(paras) - 1; i >= 0; i-- {
			if setsKey(paras[i], key) && squash(paras[i]) != squash(fact) {
				return i
			}
		}
	}
	return movedDate(fact, newWords, facts, paras)
}

// movedSubject returns the content words of the subject a fact moves to
// a day, or nil.
func movedSubject(fact string) memdir.Terms {
	line := firstLine(fact)
	for _, re := range dateMoves {
		if m := re().FindStringSubmatch(line); m != nil && startsWithDate().MatchString(m[2]) {
			if x := memdir.TermsOf(m[1]); len(x) > 0 && len(x) <= 6 {
				return x
			}
		}
	}
	return nil
}

// movedDate returns the paragraph a fact that moves its subject to a day
// replaces: the one dated paragraph about that subject, or among several
// the one sharing most words (not numbers) with the fact; -1 for none or
// a tie.
func movedDate(fact string, newWords memdir.Terms, facts []memdir.Terms, paras []string) int {
	x := movedSubject(fact)
	if x == nil {
		return -1
	}
	best, bestShared, tie := -1, -1, false
	for i, pw := range facts {
		if !containsAll(pw, x) || !aDate().MatchString(paras[i]) || squash(paras[i]) == squash(fact) {
			continue
		}
		switch s := sharedWords(pw, newWords); {
		case s > bestShared:
			best, bestShared, tie = i, s, false
		case s == bestShared:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}

// sharedWords counts the terms a and b share, but numbers: two dates
// sharing a year say nothing of their subject.
func sharedWords(a, b memdir.Terms) int {
	n := 0
	for w := range a {
		if b[w] > 0 && strings.Trim(w, "0123456789") != "" {
			n++
		}
	}
	return n
}

func containsAll(set, sub memdir.Terms) bool {
	for w := range sub {
		if set[w] == 0 {
			return false
		}
	}
	return true
}

func shared(a, b memdir.Terms) int {
	n := 0
	for w := range a {
		if b[w] > 0 {
			n++
		}
	}
	return n
}
