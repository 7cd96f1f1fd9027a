// Package reldate rewrites relative date expressions in memory text as
// absolute dates, resolved against the date the text was written, so that
// "next Thursday" in a log entry written on 2026-11-20 reads
// "Thursday 2026-11-26" forever after. The dream (distiller) runs every entry
// through Rewrite with the entry's own date.
//
// # Output forms
//
// Dates are ISO 8601 ("2026-11-26"), resolved in the location of the
// reference time (the calendar day ref.Date() reports). A phrase that names
// a weekday keeps it in front of the date; nothing else does:
//
//	today, EOD, end of day, end of today  2026-11-20
//	tomorrow / yesterday                  2026-11-21 / 2026-11-19
//	the day after tomorrow                2026-11-22 (also "day after tomorrow")
//	the day before yesterday              2026-11-18
//	tonight, last night                   2026-11-20 (night), 2026-11-19 (night)
//	this morning|afternoon|evening        2026-11-20 (morning) ...
//	tomorrow morning, yesterday evening   2026-11-21 (morning), 2026-11-19 (evening)
//	this|next|last week                   the week of 2026-11-16|23|09 (weeks start Monday)
//	this|next|last weekend                the weekend of 2026-11-21|28|14 (its Saturday)
//	this|next|last month                  November|December|October 2026
//	this|next|last year                   2026|2027|2025
//	in 3 days, in two weeks, in a month   2026-11-23, 2026-12-04, 2026-12-20
//	in 2 weeks time                       2026-12-04
//	3 days ago, a week ago (today)        2026-11-17, 2026-11-13
//	2 weeks from now|today                2026-12-04
//	[the] end of [the|this|next|last] month|week|year, EOM, EOW, EOY
//	                                      last day of the month; Friday of the
//	                                      week (a work week); 31 December
//	next Thursday                         Thursday 2026-11-26
//	Thursday next|this|last week          Thursday 2026-11-26 (that day of that week)
//
// Numbers are 1 to 999 in digits or one to twelve in words, "a"/"an" before a
// singular unit; units are day, week, fortnight, month and year. Adding months
// clamps to the end of a shorter month (2026-01-31 plus a month is
// 2026-02-28). A phrase that starts with a capital letter and resolves to a
// form starting with a lowercase word is capitalised ("Next week" gives "The
// week of 2026-11-23").
//
// # Weekdays
//
// Weeks run Monday to Sunday (ISO 8601).
//   - "next Friday" is the Friday of the following week, so on Friday
//     2026-11-20 it is 2026-11-27, and on Monday 2026-11-16 it is also
//     2026-11-27, not the Friday four days later.
//   - "this Friday" is the Friday of the current week. When that day is
//     already past ("this Monday" said on a Friday) it is ambiguous (people
//     also mean the coming Monday) and is left alone.
//   - "last Friday" and "this past Friday" are the most recent Friday strictly
//     before the reference day; "this coming Friday" is the first one strictly
//     after it.
//   - A bare weekday is resolved only after a deadline word (by, until, till,
//     til, due), as the first such day on or after the reference day: "due
//     Friday" written on a Friday means that day. Elsewhere ("on Monday",
//     "Monday") the tense decides whether it is past or future, so it is left
//     alone. Abbreviations (Mon, Tue) are never resolved.
//
// # What is left alone
//
// Rewrite is conservative; an expression it cannot resolve with confidence is
// left exactly as it was:
//   - anything it does not know: soon, later, next time, next release, a
//     while ago, a few days ago, in 3 hours, at the end of the day (an idiom);
//   - a phrase glued to other word characters or joined by - / \ . _ ' and
//     the like: todays, Fridayish, nextThursday, sunday-school, today.md,
//     Monday's notes, --today, #today, 2-3 days ago;
//   - "the next/last ..." ("the last week" is the past seven days, "the last
//     Friday of the month" is no particular Friday);
//   - a count after or, to, and or an approximation word (about, around,
//     roughly, over, ...) or followed by "or": "2 or 3 days ago", "about a
//     week ago", "in a day or two";
//   - a phrase already followed by an ISO date, optionally after "(", ",",
//     "[" or ":" ("Friday (2026-11-27)", "tomorrow, 2026-11-21"), and a
//     weekday phrase right after an ISO date ("2026-11-26 Thursday");
//   - anything inside a code span or fenced code block, or inside a URL.
//
// Words of a phrase may be separated by spaces, tabs and at most one line
// break; the replacement is on one line. Matching is case-insensitive and
// every byte outside the replaced phrases is kept.
//
// Rewrite is idempotent: no absolute form contains a word that would match
// again, and every form that starts with a weekday ends with a date that
// stops it from being resolved twice.
package reldate

import (
	"strings"
	"time"
)

// Change records one phrase Rewrite replaced.
type Change struct {
	// From is the phrase exactly as it appeared in the original text.
	From string
	// To is the absolute form that replaced it.
	To string
	// Offset is the byte offset of From in the original text.
	Offset int
}

// Rewrite returns text with every relative date expression it can resolve
// replaced by an absolute one, computed against the calendar day of ref, and
// the list of replacements in text order. When nothing changes it returns
// text itself and a nil list.
func Rewrite(text string, ref time.Time) (string, []Change) {
	s := newScanner(text, ref)
	var changes []Change
	for i := 0; i < len(text); {
		if !isAlnum(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isAlnum(text[j]) {
			j++
		}
		if end, to, ok := s.matchAt(i, j); ok {
			changes = append(changes, Change{From: text[i:end], To: capitalize(text[i], to), Offset: i})
			i = end
			continue
		}
		i = j
	}
	if len(changes) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text) + 16*len(changes))
	last := 0
	for _, c := range changes {
		b.WriteString(text[last:c.Offset])
		b.WriteString(c.To)
		last = c.Offset + len(c.From)
	}
	b.WriteString(text[last:])
	return b.String(), changes
}

// capitalize upper-cases the first letter of to when the phrase it replaces
// started with a capital, so a sentence keeps its capital.
func capitalize(first byte, to string) string {
	if first >= 'A' && first <= 'Z' && to != "" && to[0] >= 'a' && to[0] <= 'z' {
		return string(to[0]-'a'+'A') + to[1:]
	}
	return to
}
