package reldate

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fri is the reference date of most cases: Friday 2026-11-20.
var fri = time.Date(2026, 11, 20, 10, 4, 5, 0, time.UTC)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 9, 0, 0, 0, time.UTC) }

type rewriteCase struct {
	name string
	ref  time.Time
	in   string
	want string
}

var rewriteCases = []rewriteCase{
	// Days.
	{"today", fri, "today", "2026-11-20"},
	{"today sentence", fri, "Today we ship.", "2026-11-20 we ship."},
	{"upper", fri, "TODAY", "2026-11-20"},
	{"tonight", fri, "deploy tonight", "deploy 2026-11-20 (night)"},
	{"tomorrow", fri, "tomorrow", "2026-11-21"},
	{"yesterday", fri, "broke yesterday.", "broke 2026-11-19."},
	{"tomorrow morning", fri, "tomorrow morning", "2026-11-21 (morning)"},
	{"yesterday evening", fri, "Yesterday Evening", "2026-11-19 (evening)"},
	{"this morning", fri, "this morning", "2026-11-20 (morning)"},
	{"this afternoon", fri, "this afternoon", "2026-11-20 (afternoon)"},
	{"last night", fri, "last night", "2026-11-19 (night)"},
	{"day after tomorrow", fri, "the day after tomorrow", "2026-11-22"},
	{"day after tomorrow bare", fri, "day after tomorrow", "2026-11-22"},
	{"day before yesterday", fri, "The day before yesterday", "2026-11-18"},
	{"eod", fri, "by EOD", "by 2026-11-20"},
	{"end of day", fri, "by end of day", "by 2026-11-20"},
	{"end of today", fri, "end of today", "2026-11-20"},
	// Weeks, months, years.
	{"next week", fri, "next week", "the week of 2026-11-23"},
	{"next week capital", fri, "Next week is the freeze", "The week of 2026-11-23 is the freeze"},
	{"this week", fri, "this week", "the week of 2026-11-16"},
	{"last week", fri, "last week", "the week of 2026-11-09"},
	{"this weekend", fri, "this weekend", "the weekend of 2026-11-21"},
	{"next weekend", fri, "next weekend", "the weekend of 2026-11-28"},
	{"last weekend", fri, "last weekend", "the weekend of 2026-11-14"},
	{"next month", fri, "next month", "December 2026"},
	{"this month", fri, "this month", "November 2026"},
	{"last month", fri, "last month", "October 2026"},
	{"next year", fri, "next year", "2027"},
	{"last year", fri, "last year", "2025"},
	{"this year", fri, "this year", "2026"},
	// Weekdays.
	{"next thursday", fri, "merge freeze begins next Thursday for the mobile cut", "merge freeze begins Thursday 2026-11-26 for the mobile cut"},
	{"next friday", fri, "next Friday", "Friday 2026-11-27"},
	{"next monday", fri, "next monday", "Monday 2026-11-23"},
	{"next sunday", fri, "next Sunday", "Sunday 2026-11-29"},
	{"next saturday", fri, "next Saturday", "Saturday 2026-11-28"},
	{"upper next thursday", fri, "NEXT THURSDAY", "Thursday 2026-11-26"},
	{"this friday is today", fri, "this Friday", "Friday 2026-11-20"},
	{"this saturday", fri, "this Saturday", "Saturday 2026-11-21"},
	{"this sunday", fri, "this Sunday", "Sunday 2026-11-22"},
	{"last friday", fri, "last Friday", "Friday 2026-11-13"},
	{"last thursday", fri, "last Thursday", "Thursday 2026-11-19"},
	{"last saturday", fri, "last Saturday", "Saturday 2026-11-14"},
	{"this coming friday", fri, "this coming Friday", "Friday 2026-11-27"},
	{"this coming monday", fri, "this coming Monday", "Monday 2026-11-23"},
	{"this past friday", fri, "this past Friday", "Friday 2026-11-13"},
	{"weekday next week", fri, "Thursday next week", "Thursday 2026-11-26"},
	{"weekday last week", fri, "Monday last week", "Monday 2026-11-09"},
	{"weekday this week", fri, "Wednesday this week", "Wednesday 2026-11-18"},
	{"by friday", fri, "done by Friday", "done by Friday 2026-11-20"},
	{"until tuesday", fri, "frozen until Tuesday.", "frozen until Tuesday 2026-11-24."},
	{"due sunday", fri, "due Sunday", "due Sunday 2026-11-22"},
	{"by friday next week", fri, "by Friday next week", "by Friday 2026-11-27"},
	// Counts.
	{"in 3 days", fri, "in 3 days", "2026-11-23"},
	{"in two weeks", fri, "in two weeks", "2026-12-04"},
	{"in a month", fri, "in a month", "2026-12-20"},
	{"in 1 year", fri, "in 1 year", "2027-11-20"},
	{"in a fortnight", fri, "in a fortnight", "2026-12-04"},
	{"in ten days", fri, "In ten days", "2026-11-30"},
	{"in 1 day", fri, "in 1 day", "2026-11-21"},
	{"in weeks time", fri, "in 2 weeks time", "2026-12-04"},
	{"3 days ago", fri, "3 days ago", "2026-11-17"},
	{"a week ago", fri, "a week ago", "2026-11-13"},
	{"a week ago today", fri, "a week ago today", "2026-11-13"},
	{"two months ago", fri, "two months ago", "2026-09-20"},
	{"twelve years ago", fri, "twelve years ago", "2014-11-20"},
	{"weeks from now", fri, "2 weeks from now", "2026-12-04"},
	{"days from today", fri, "3 days from today", "2026-11-23"},
	// End of.
	{"end of month", fri, "end of month", "2026-11-30"},
	{"end of the month", fri, "by the end of the month", "by 2026-11-30"},
	{"end of this month", fri, "end of this month", "2026-11-30"},
	{"end of next month", fri, "by the end of next month", "by 2026-12-31"},
	{"eom", fri, "EOM", "2026-11-30"},
	{"end of week", fri, "end of week", "2026-11-20"},
	{"end of the week", fri, "end of the week", "2026-11-20"},
	{"eow", fri, "EOW", "2026-11-20"},
	{"end of next week", fri, "end of next week", "2026-11-27"},
	{"end of last week", fri, "end of last week", "2026-11-13"},
	{"end of year", fri, "end of year", "2026-12-31"},
	{"end of next year", fri, "end of next year", "2027-12-31"},
	{"eoy", fri, "eoy", "2026-12-31"},
	// Several, punctuation and layout.
	{"several", fri, "Ship tomorrow, review next Thursday.", "Ship 2026-11-21, review Thursday 2026-11-26."},
	{"line break", fri, "begins next\n  Thursday for", "begins Thursday 2026-11-26 for"},
	{"crlf break", fri, "begins next\r\nweek", "begins the week of 2026-11-23"},
	{"log entry", fri, "- 10:20 [project] Release freeze: merge freeze begins next Thursday.\n  Why: cut on Friday; retro tomorrow.",
		"- 10:20 [project] Release freeze: merge freeze begins Thursday 2026-11-26.\n  Why: cut on Friday; retro 2026-11-21."},
	{"brackets", fri, "(tomorrow)", "(2026-11-21)"},
	{"markdown bold", fri, "**tomorrow**", "**2026-11-21**"},
	{"quoted", fri, `"today"`, `"2026-11-20"`},
	{"curly quotes", fri, "“tomorrow”", "“2026-11-21”"},
	{"code span beside", fri, "`make` tomorrow", "`make` 2026-11-21"},
	{"url beside", fri, "see https://x.io today", "see https://x.io 2026-11-20"},
	{"next next", fri, "next next Friday", "next Friday 2026-11-27"},
	{"end of the next week", fri, "end of the next week", "end of the next week"},
	// Other reference days.
	{"sunday next monday", date(2026, 11, 22), "next Monday", "Monday 2026-11-23"},
	{"sunday last sunday", date(2026, 11, 22), "last Sunday", "Sunday 2026-11-15"},
	{"sunday this week", date(2026, 11, 22), "this week", "the week of 2026-11-16"},
	{"sunday next week", date(2026, 11, 22), "next week", "the week of 2026-11-23"},
	{"sunday eow", date(2026, 11, 22), "end of the week", "2026-11-20"},
	{"sunday by sunday", date(2026, 11, 22), "by Sunday", "by Sunday 2026-11-22"},
	{"monday next friday", date(2026, 11, 16), "next Friday", "Friday 2026-11-27"},
	{"monday this friday", date(2026, 11, 16), "this Friday", "Friday 2026-11-20"},
	{"jan 31 in a month", date(2026, 1, 31), "in a month", "2026-02-28"},
	{"jan 31 next month", date(2026, 1, 31), "next month", "February 2026"},
	{"jan 31 end of next month", date(2026, 1, 31), "end of next month", "2026-02-28"},
	{"jan 31 tomorrow", date(2026, 1, 31), "tomorrow", "2026-02-01"},
	{"jan 31 a month ago", date(2026, 1, 31), "a month ago", "2025-12-31"},
	{"mar 31 a month ago", date(2026, 3, 31), "a month ago", "2026-02-28"},
	{"dec 31 tomorrow", date(2026, 12, 31), "tomorrow", "2027-01-01"},
	{"dec 31 next year", date(2026, 12, 31), "next year", "2027"},
	{"dec 31 next month", date(2026, 12, 31), "next month", "January 2027"},
	{"dec 31 next week", date(2026, 12, 31), "next week", "the week of 2027-01-04"},
	{"dec 31 in 2 days", date(2026, 12, 31), "in 2 days", "2027-01-02"},
	{"jan 1 yesterday", date(2027, 1, 1), "yesterday", "2026-12-31"},
	{"jan 1 last week", date(2027, 1, 1), "last week", "the week of 2026-12-21"},
	{"leap tomorrow", date(2028, 2, 28), "tomorrow", "2028-02-29"},
	{"leap end of month", date(2028, 2, 10), "end of the month", "2028-02-29"},
	{"leap in a year", date(2028, 2, 29), "in a year", "2029-02-28"},
	{"leap a year ago", date(2028, 2, 29), "a year ago", "2027-02-28"},
	{"non-leap end of month", date(2027, 2, 10), "EOM", "2027-02-28"},
	{"zone keeps local date", time.Date(2026, 11, 20, 23, 30, 0, 0, time.FixedZone("PST", -8*3600)), "today", "2026-11-20"},
}

// negatives are left exactly as they are (ref fri).
var negatives = []string{
	"The tomorrow flag in the config is deprecated.",
	"a today view",
	"Run the script with --since yesterday to see it.",
	"use -d today for the current day",
	"soon", "later", "next time", "next release", "a while ago",
	"a few days ago", "several weeks ago", "in 3 hours", "an hour ago",
	"at the end of the day", "todays", "Fridayish", "nextThursday",
	"sunday-school", "today.md", "Monday's meeting notes", "next week's demo",
	"Tomorrow's plan", "tomorrow-ish", "--today", "#today", "$today", "x_today",
	"today_x", "docs/today", "ïtoday", "2-3 days ago", "2 or 3 days ago",
	"about a week ago", "roughly 2 weeks ago", "the last week",
	"the next Friday", "the last Friday of the month", "Friday (2026-11-27)",
	"next Thursday (2026-11-26)", "tomorrow, 2026-11-21", "2026-11-26 Thursday",
	"2026-11-26 (Thursday)", "Thursday 2026-11-26", "run `date -d tomorrow`",
	"```\nnext week\n```", "~~~\ntoday\n", "`unclosed today", "https://example.com/today next-week",
	"see https://x.io/?q=next%20week today.x", "www.today.com", "in 1000 days",
	"in 0 days", "05 days ago", "on Monday", "Monday", "this Monday",
	"in a days", "a days ago", "every Friday", "Fridays", "next\n\nweek",
	"Mon", "next Mon", "in a bit", "the week after", "last but not least",
	"3days ago", "in 1.5 weeks", "in a day or two", "a week or so ago", "a week ago or so", "tonightly", "end of the week-end",
}

func TestRewrite(t *testing.T) {
	for _, tc := range rewriteCases {
		t.Run(tc.name, func(t *testing.T) {
			got, changes := Rewrite(tc.in, tc.ref)
			if got != tc.want {
				t.Errorf("Rewrite(%q) = %q, want %q", tc.in, got, tc.want)
			}
			checkChanges(t, tc.in, got, changes)
		})
	}
}

func TestRewriteLeavesAlone(t *testing.T) {
	for _, in := range negatives {
		t.Run(in, func(t *testing.T) {
			got, changes := Rewrite(in, fri)
			if got != in || changes != nil {
				t.Errorf("Rewrite(%q) = %q, %v; want it unchanged", in, got, changes)
			}
		})
	}
}

func TestRewriteIdempotent(t *testing.T) {
	for _, tc := range rewriteCases {
		t.Run(tc.name, func(t *testing.T) {
			once, _ := Rewrite(tc.in, tc.ref)
			// A later run may use another reference date (a topic file
			// rewritten on a later day): nothing may match again either way.
			for _, ref := range []time.Time{tc.ref, tc.ref.AddDate(0, 1, 3)} {
				if twice, changes := Rewrite(once, ref); twice != once || changes != nil {
					t.Errorf("second Rewrite(%q) = %q, %v; want no change", once, twice, changes)
				}
			}
		})
	}
}

func TestRewriteChanges(t *testing.T) {
	in := "Ship Tomorrow; demo next\nFriday, `today` stays, and EOM."
	got, changes := Rewrite(in, fri)
	want := []Change{
		{From: "Tomorrow", To: "2026-11-21", Offset: 5},
		{From: "next\nFriday", To: "Friday 2026-11-27", Offset: 20},
		{From: "EOM", To: "2026-11-30", Offset: 52},
	}
	if diff := cmp.Diff(want, changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if wantText := "Ship 2026-11-21; demo Friday 2026-11-27, `today` stays, and 2026-11-30."; got != wantText {
		t.Errorf("got %q, want %q", got, wantText)
	}
}

// checkChanges verifies that changes are in order, point at their From in
// in, and turn in into out with every other byte kept.
func checkChanges(t *testing.T, in, out string, changes []Change) {
	t.Helper()
	rebuilt, last := "", 0
	for _, c := range changes {
		if c.Offset < last || c.Offset+len(c.From) > len(in) {
			t.Fatalf("change %+v out of order or range (after %d, len %d)", c, last, len(in))
		}
		if got := in[c.Offset : c.Offset+len(c.From)]; got != c.From || c.From == "" {
			t.Fatalf("change %+v: text at offset is %q", c, got)
		}
		rebuilt += in[last:c.Offset] + c.To
		last = c.Offset + len(c.From)
	}
	rebuilt += in[last:]
	if rebuilt != out {
		t.Fatalf("splicing changes gives %q, want output %q", rebuilt, out)
	}
}
