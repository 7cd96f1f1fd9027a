package search

import (
	"strings"
	"time"

	"github.com/memdir/memdir/reldate"
)

// Dates are searchable by month. Each document holds a date term for the
// month it was created in, the month it was last changed in (a log
// entry's day) and each month its text names (2026-12-05, December
// 2026). A question that names a period ("in May 2026", "last week",
// "on 2026-12-05", "in January") asks for the months the period spans,
// as one more word of the query: the memories of that period come first
// (every word present), and when none has every word the period only
// adds to a memory's score. Date terms start with dateMark, which no
// word of text or of a query can hold (a control character), so they
// are in no word list and no prefix or near spelling reaches them.
const (
	dateMark     = "\x01"
	maxDateTerms = 16 // date terms of one document
	maxPeriod    = 24 // months a question's period may span to count
)

// monthTerm is the date term of the month of an ISO date.
func monthTerm(ymd string) string { return dateMark + ymd[:7] }

// dateTerms lists the date terms of a document: its own created and
// modified months and the months its text names, each once.
func dateTerms(own []string, fields *[numFields]string) []string {
	var out []string
	add := func(ymd string) {
		if len(out) < maxDateTerms && isISODay(ymd) {
			out = appendNew(out, monthTerm(ymd))
		}
	}
	for _, d := range own {
		if len(d) >= 10 {
			add(d[:10])
		}
	}
	for _, text := range fields {
		textDates(text, add)
	}
	return out
}

// textDates calls fn with the first day of each ISO date (2026-12-05)
// and each "Month YYYY" (December 2026) in text.
func textDates(text string, fn func(ymd string)) {
	for i := 0; i+10 <= len(text); i++ {
		if c := text[i]; c < '0' || c > '9' || i > 0 && isDigitByte(text[i-1]) {
			continue
		}
		if isISODay(text[i:i+10]) && (i+10 == len(text) || !isDigitByte(text[i+10])) {
			fn(text[i : i+10])
			i += 9
		}
	}
	// "Month YYYY": find each year first (rare), then the word before it.
	for i := 0; i+4 <= len(text); i++ {
		if i > 0 && !isSpaceByte(text[i-1]) || !isDigitByte(text[i]) {
			continue
		}
		y, ok := yearOf(text[i:min(len(text), i+4)])
		if !ok || i+4 < len(text) && !isSpaceByte(text[i+4]) && strings.IndexByte(".,;:?!)", text[i+4]) < 0 {
			continue
		}
		end := i - 1
		if end <= 0 {
			continue
		}
		for end > 0 && isSpaceByte(text[end-1]) {
			end--
		}
		start := end
		for start > 0 && !isSpaceByte(text[start-1]) {
			start--
		}
		if m := monthOf(text[start:end]); m > 0 && end > start {
			fn(time.Date(y, m, 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly))
		}
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// isISODay reports whether s is YYYY-MM-DD with a month and day in range.
func isISODay(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && !isDigitByte(c) {
			return false
		}
	}
	m, d := (s[5]-'0')*10+s[6]-'0', (s[8]-'0')*10+s[9]-'0'
	return m >= 1 && m <= 12 && d >= 1 && d <= 31
}

// monthOf is the month a word names (January, jan.; case aside), or 0.
// "May" and "March" count as months here: monthOf is asked only next to
// a year or a word that introduces a date.
func monthOf(w string) time.Month {
	w = strings.ToLower(strings.TrimRight(w, ".,;:?!)"))
	if len(w) < 3 {
		return 0
	}
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		if w == name || len(w) == 3 && strings.HasPrefix(name, w) && w != "mar" && w != "may" {
			return m
		}
	}
	if w == "sept" {
		return time.September
	}
	return 0
}

// yearOf reads a year from 1970 to 2199.
func yearOf(w string) (int, bool) {
	w = strings.TrimRight(w, ".,;:?!)")
	if len(w) != 4 || (w[:2] != "19" && w[:2] != "20" && w[:2] != "21") {
		return 0, false
	}
	y := 0
	for _, c := range []byte(w) {
		if !isDigitByte(c) {
			return 0, false
		}
		y = y*10 + int(c-'0')
	}
	return y, y >= 1970
}

// introduces reports whether w is one of the words after which a month name alone is a date
// ("in May", "since March"), not a verb or a word of the text.
func introduces(w string) bool {
	switch strings.ToLower(w) {
	case "in", "during", "since", "until", "till", "before", "after", "by", "of", "last", "next", "this", "early", "late", "mid":
		return true
	}
	return false
}

// questionPeriod finds the period a query names: relative dates as
// reldate resolves them against now (last week, yesterday, next month),
// ISO dates, "Month YYYY", "in YYYY" and a month after a word such as in
// or since (both the last such month and the next, since the tense
// rarely says which). It returns the text with the words that named a
// period blanked (an ISO date is kept: its numbers are words of memory
// text too) and the months the period spans; none when it spans more
// than maxPeriod.
func questionPeriod(text string, now time.Time) (string, []string) {
	b := []byte(text)
	var months []string
	addSpan := func(from, to time.Time) {
		for m := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(to) && len(months) <= maxPeriod; m = m.AddDate(0, 1, 0) {
			months = appendNew(months, monthTerm(m.Format(time.DateOnly)))
		}
	}
	blank := func(at, n int) {
		for i := at; i < at+n && i < len(b); i++ {
			b[i] = ' '
		}
	}
	if _, changes := reldate.Rewrite(text, now); len(changes) > 0 {
		for _, c := range changes {
			if from, to, ok := spanOf(c.To); ok {
				addSpan(from, to)
				blank(c.Offset, len(c.From))
			}
		}
	}
	textDates(text, func(ymd string) {
		d, _ := time.Parse(time.DateOnly, ymd)
		addSpan(d, d)
	})
	words := wordSpans(string(b))
	for i, w := range words {
		word := string(b[w.start:w.end])
		if m := monthOf(word); m > 0 {
			if i+1 < len(words) {
				if _, ok := yearOf(string(b[words[i+1].start:words[i+1].end])); ok {
					blank(w.start, words[i+1].end-w.start)
					continue
				}
			}
			if i > 0 && introduces(string(b[words[i-1].start:words[i-1].end])) {
				last, next := around(m, now)
				addSpan(last, last)
				addSpan(next, next)
				blank(w.start, w.end-w.start)
			}
			continue
		}
		if y, ok := yearOf(word); ok && i > 0 && introduces(string(b[words[i-1].start:words[i-1].end])) {
			addSpan(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y, 12, 1, 0, 0, 0, 0, time.UTC))
			blank(w.start, w.end-w.start)
		}
	}
	if len(months) > maxPeriod {
		return text, nil
	}
	return string(b), months
}

// spanOf reads one of reldate's absolute forms: an ISO day (with a
// weekday or a part of the day), the week or weekend of a day, a month
// and year, or a year.
func spanOf(form string) (from, to time.Time, ok bool) {
	for i := 0; i+10 <= len(form); i++ {
		if isISODay(form[i : i+10]) {
			d, _ := time.Parse(time.DateOnly, form[i:i+10])
			switch {
			case strings.Contains(form, "weekend of"):
				return d, d.AddDate(0, 0, 1), true
			case strings.Contains(form, "week of"):
				return d, d.AddDate(0, 0, 6), true
			}
			return d, d, true
		}
	}
	f := strings.Fields(form)
	if len(f) == 2 {
		if m := monthOf(f[0]); m > 0 {
			if y, ok := yearOf(f[1]); ok {
				d := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
				return d, d, true
			}
		}
	}
	if len(f) == 1 {
		if y, ok := yearOf(f[0]); ok {
			return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y, 12, 1, 0, 0, 0, 0, time.UTC), true
		}
	}
	return time.Time{}, time.Time{}, false
}

// around is the first day of the last month m before now's month (or
// now's own) and of the next one after it.
func around(m time.Month, now time.Time) (last, next time.Time) {
	y := now.Year()
	last = time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	if m > now.Month() {
		last = last.AddDate(-1, 0, 0)
	}
	next = time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	if m <= now.Month() {
		next = next.AddDate(1, 0, 0)
	}
	return last, next
}

// wordSpans are the runs of bytes between spaces and punctuation that
// ends a word.
func wordSpans(s string) []span {
	var out []span
	start := -1
	for i := 0; i <= len(s); i++ {
		sep := i == len(s) || strings.IndexByte(" \t\n\r,;:?!()\"", s[i]) >= 0
		switch {
		case sep && start >= 0:
			out = append(out, span{start, i})
			start = -1
		case !sep && start < 0:
			start = i
		}
	}
	return out
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
