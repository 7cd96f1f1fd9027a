package reldate

import (
	"strconv"
	"sync"
	"time"
)

// maxToks is the longest phrase in words ("the end of the next month"
// needs five; "3 weeks from today" four).
const maxToks = 6

// tok is one word of a candidate phrase: its span and lowercased text.
type tok struct {
	s, e int
	w    string
}

// scanner holds what matchAt needs for one text.
type scanner struct {
	text  string
	today day
	prot  []span
	buf   [maxToks]tok
	low   [9]byte // the longest starting word is "wednesday"
}

func newScanner(text string, ref time.Time) *scanner {
	return &scanner{text: text, today: dayOf(ref), prot: protected(text)}
}

// result is a resolved phrase: how many words it took and what replaces them.
type result struct {
	n       int
	to      string
	weekday bool // the phrase names a weekday: check for a date before it
}

var triggers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"today": true, "tonight": true, "tomorrow": true, "yesterday": true,
		"this": true, "next": true, "last": true, "the": true, "day": true,
		"end": true, "eod": true, "eow": true, "eom": true, "eoy": true, "in": true,
		"a": true, "an": true,
	}
})

var weekdays = sync.OnceValue(func() map[string]time.Weekday {
	return map[string]time.Weekday{
		"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
		"wednesday": time.Wednesday, "thursday": time.Thursday,
		"friday": time.Friday, "saturday": time.Saturday,
	}
})

var numberWords = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
		"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	}
})

// Words before a count that make it vague or part of a range.
var vague = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"or": true, "to": true, "and": true, "about": true, "around": true,
		"roughly": true, "approximately": true, "some": true, "nearly": true,
		"almost": true, "over": true, "under": true, "maybe": true, "few": true,
		"several": true, "like": true,
	}
})

var deadlines = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"by": true, "until": true, "till": true, "til": true, "due": true}
})

var parts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"morning": true, "afternoon": true, "evening": true, "night": true}
})

// matchAt tries a phrase whose first word is text[i:j] and returns the end
// of the phrase and its replacement when it resolves and may be rewritten.
func (s *scanner) matchAt(i, j int) (int, string, bool) {
	if !s.mayStart(s.text[i:j]) {
		return 0, "", false
	}
	first := lower(s.text[i:j])
	_, isNum := count(first)
	t := s.collect(i)
	prev := prevWord(s.text, i)
	r := s.match(t, prev)
	if r.n == 0 {
		return 0, "", false
	}
	end := t[r.n-1].e
	switch {
	case !okBefore(s.text, i), !okAfter(s.text, end),
		overlaps(s.prot, i, end), dateAfter(s.text, end),
		r.weekday && dateBefore(s.text, i),
		(first == "next" || first == "last") && prev == "the",
		// "the tomorrow flag" names a thing, and "--since yesterday" is
		// a command's argument: neither is a date to pin down.
		prev == "the" || prev == "a" || prev == "an", flagBefore(s.text, i),
		isNum && vague()[prev]:
		return 0, "", false
	}
	return end, r.to, true
}

// mayStart reports, without allocating, whether w can begin a phrase.
func (s *scanner) mayStart(w string) bool {
	if len(w) > len(s.low) {
		return false
	}
	b := s.low[:len(w)]
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	if triggers()[string(b)] || numberWords()[string(b)] > 0 {
		return true
	}
	if _, ok := weekdays()[string(b)]; ok {
		return true
	}
	_, ok := count(w)
	return ok
}

// collect reads up to maxToks words from i, separated by blanks and at most
// one line break each.
func (s *scanner) collect(i int) []tok {
	text, n := s.text, 0
	for n < maxToks {
		e := i
		for e < len(text) && isAlnum(text[e]) {
			e++
		}
		s.buf[n] = tok{i, e, lower(text[i:e])}
		n++
		k, breaks := e, 0
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n') {
			if text[k] == '\n' {
				breaks++
			}
			k++
		}
		if k == e || breaks > 1 || k >= len(text) || !isAlnum(text[k]) {
			break
		}
		i = k
	}
	return s.buf[:n]
}

// word returns the i-th word of t, or "" past its end.
func word(t []tok, i int) string {
	if i < len(t) {
		return t[i].w
	}
	return ""
}

func (s *scanner) match(t []tok, prev string) result {
	d := s.today
	switch w := t[0].w; w {
	case "today", "eod":
		return result{n: 1, to: iso(d)}
	case "tonight":
		return result{n: 1, to: withPart(d, "night")}
	case "tomorrow", "yesterday":
		if w == "tomorrow" {
			d = addDays(d, 1)
		} else {
			d = addDays(d, -1)
		}
		if p := word(t, 1); parts()[p] {
			return result{n: 2, to: withPart(d, p)}
		}
		return result{n: 1, to: iso(d)}
	case "this", "next", "last":
		return s.matchRelative(t)
	case "the":
		if n := word(t, 1); n == "day" || n == "end" {
			if r := s.match(t[1:], ""); r.n > 0 {
				r.n++
				return r
			}
		}
	case "day":
		switch word(t, 1) + " " + word(t, 2) {
		case "after tomorrow":
			return result{n: 3, to: iso(addDays(d, 2))}
		case "before yesterday":
			return result{n: 3, to: iso(addDays(d, -2))}
		}
	case "end":
		return s.matchEnd(t)
	case "eow":
		return result{n: 1, to: iso(endOf(d, "week", 0))}
	case "eom":
		return result{n: 1, to: iso(endOf(d, "month", 0))}
	case "eoy":
		return result{n: 1, to: iso(endOf(d, "year", 0))}
	case "in":
		return s.matchCount(t[1:], 1, 1)
	}
	if wd, ok := weekdays()[t[0].w]; ok {
		return s.matchWeekday(t, wd, prev)
	}
	return s.matchCount(t, 0, -1)
}

// shift is the week, month or year offset a relative word stands for.
func shift(w string) (int, bool) {
	switch w {
	case "this", "the":
		return 0, true
	case "next":
		return 1, true
	case "last":
		return -1, true
	}
	return 0, false
}

// matchRelative handles this/next/last followed by a unit, weekday or part
// of day.
func (s *scanner) matchRelative(t []tok) result {
	d := s.today
	k, _ := shift(t[0].w)
	switch w := word(t, 1); {
	case k == 0 && (w == "morning" || w == "afternoon" || w == "evening"):
		return result{n: 2, to: withPart(d, w)}
	case k == -1 && w == "night":
		return result{n: 2, to: withPart(addDays(d, -1), "night")}
	case w == "week":
		return result{n: 2, to: "the week of " + iso(monday(d, k))}
	case w == "weekend":
		return result{n: 2, to: "the weekend of " + iso(addDays(monday(d, k), 5))}
	case w == "month":
		return result{n: 2, to: monthName(addMonths(d, k))}
	case w == "year":
		return result{n: 2, to: yearName(d, k)}
	case k == 0 && (w == "coming" || w == "past"):
		wd, ok := weekdays()[word(t, 2)]
		if !ok {
			return result{}
		}
		step := 1
		if w == "past" {
			step = -1
		}
		return result{n: 3, to: withWeekday(nearest(d, wd, step)), weekday: true}
	}
	wd, ok := weekdays()[word(t, 1)]
	if !ok {
		return result{}
	}
	var x day
	switch k {
	case 0:
		if x = addDays(monday(d, 0), isoIndex(weekdayDay(wd))); x.Before(d) {
			return result{}
		}
	case 1:
		x = addDays(monday(d, 1), isoIndex(weekdayDay(wd)))
	default:
		x = nearest(d, wd, -1)
	}
	return result{n: 2, to: withWeekday(x), weekday: true}
}

// weekdayDay is any day falling on wd, for isoIndex.
func weekdayDay(wd time.Weekday) day {
	return time.Date(2024, 1, 7+int(wd), 12, 0, 0, 0, time.UTC) // 2024-01-07 is a Sunday
}

// nearest is the first day on wd strictly after d (step 1) or strictly
// before it (step -1).
func nearest(d day, wd time.Weekday, step int) day {
	for x := addDays(d, step); ; x = addDays(x, step) {
		if x.Weekday() == wd {
			return x
		}
	}
}

// matchWeekday handles "Friday next week" and a bare weekday after a
// deadline word.
func (s *scanner) matchWeekday(t []tok, wd time.Weekday, prev string) result {
	d := s.today
	if k, ok := shift(word(t, 1)); ok && word(t, 1) != "the" && word(t, 2) == "week" {
		x := addDays(monday(d, k), isoIndex(weekdayDay(wd)))
		return result{n: 3, to: withWeekday(x), weekday: true}
	}
	if !deadlines()[prev] {
		return result{}
	}
	x := d
	if x.Weekday() != wd {
		x = nearest(d, wd, 1)
	}
	return result{n: 1, to: withWeekday(x), weekday: true}
}

// matchEnd handles "end of ..." (t[0] is "end").
func (s *scanner) matchEnd(t []tok) result {
	if word(t, 1) != "of" {
		return result{}
	}
	d := s.today
	switch w := word(t, 2); w {
	case "day", "today":
		return result{n: 3, to: iso(d)}
	case "week", "month", "year":
		return result{n: 3, to: iso(endOf(d, w, 0))}
	}
	k, ok := shift(word(t, 2))
	switch u := word(t, 3); {
	case ok && (u == "week" || u == "month" || u == "year"):
		return result{n: 4, to: iso(endOf(d, u, k))}
	}
	return result{}
}

// endOf is the last day of d's week (its Friday), month or year, moved by k
// units.
func endOf(d day, unit string, k int) day {
	switch unit {
	case "week":
		return addDays(monday(d, k), 4)
	case "month":
		return lastOfMonth(addMonths(d, k))
	}
	return time.Date(d.Year()+k, 12, 31, 12, 0, 0, 0, time.UTC)
}

// count parses a count word: 1 to 999 in digits without a leading zero
// (larger numbers are years and ids, not counts), one to twelve, or a/an
// (callers check that a/an come with a singular unit).
func count(w string) (int, bool) {
	if n, ok := numberWords()[w]; ok {
		return n, true
	}
	if w == "a" || w == "an" {
		return 1, true
	}
	if len(w) == 0 || len(w) > 3 || w[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	return n, err == nil
}

// matchCount handles "<count> <unit> ago", "<count> <unit> from now|today"
// (sign -1, as called for a leading count) and, after "in", "<count> <unit>"
// (sign 1). skip is the number of words before t.
func (s *scanner) matchCount(t []tok, skip, sign int) result {
	n, ok := count(word(t, 0))
	if !ok {
		return result{}
	}
	unit, singular := units(word(t, 1))
	if unit == "" || ((word(t, 0) == "a" || word(t, 0) == "an") && !singular) {
		return result{}
	}
	used := 2
	if sign > 0 && word(t, 2) == "time" {
		used = 3 // in 2 weeks time
	}
	if sign < 0 {
		switch word(t, 2) + " " + word(t, 3) {
		case "from now", "from today":
			sign, used = 1, 4
		default:
			if word(t, 2) != "ago" {
				return result{}
			}
			used = 3
			if word(t, 3) == "today" {
				used = 4
			}
		}
	}
	if word(t, used) == "or" {
		return result{} // in a day or two
	}
	return result{n: skip + used, to: iso(move(s.today, unit, sign*n))}
}

// units maps a unit word to its canonical name and whether it is singular.
func units(w string) (string, bool) {
	switch w {
	case "day", "week", "fortnight", "month", "year":
		return w, true
	case "days", "weeks", "fortnights", "months", "years":
		return w[:len(w)-1], false
	}
	return "", false
}

func move(d day, unit string, n int) day {
	switch unit {
	case "day":
		return addDays(d, n)
	case "week":
		return addDays(d, 7*n)
	case "fortnight":
		return addDays(d, 14*n)
	case "month":
		return addMonths(d, n)
	}
	return addMonths(d, 12*n)
}
