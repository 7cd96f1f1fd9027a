package dailylog

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/typesx"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		in   Entry
		want string
	}{
		{"full", Entry{Time: "10:04", Type: typesx.Feedback, Title: "Testing policy", Text: "first line\ncontinuation"},
			"- 10:04 [feedback] Testing policy: first line\n  continuation\n"},
		{"text only", Entry{Text: "remember the VPN"}, "- remember the VPN\n"},
		{"title only", Entry{Title: "Release freeze"}, "- Release freeze:\n"},
		{"blank line kept", Entry{Text: "a\n\n b\n\n"}, "- a\n\n   b\n"},
		{"short time", Entry{Time: "9:04", Type: "Project", Text: "x"}, "- 09:04 [project] x\n"},
		{"title with colon", Entry{Title: "A: B", Text: "c"}, "- **A: B**: c\n"},
		{"title with stars", Entry{Title: "a**b. c\\", Text: "c"}, "- **a\\*\\*b. c\\\\**: c\n"},
		{"text like a type", Entry{Text: "[user] x"}, "- \\[user] x\n"},
		{"text like a time", Entry{Text: "10:04 standup"}, "- \\10:04 standup\n"},
		{"text like a title", Entry{Time: "10:04", Text: "Note: x"}, "- 10:04 \\Note: x\n"},
		{"text like a break", Entry{Text: "- -"}, "- \\- -\n"},
		{"title with newline", Entry{Title: "two\nlines", Text: "x"}, "- two lines: x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Format(tc.in); got != tc.want {
				t.Errorf("Format(%+v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFormatParseRoundTrip(t *testing.T) {
	tests := []Entry{
		{Time: "10:04", Type: typesx.Feedback, Title: "Testing policy", Text: "Integration tests hit a real database.\nWhy: mocks hid a broken migration."},
		{Time: "10:04:05", Text: "seconds"},
		{Type: typesx.Reference, Text: "https://grafana.example: the dashboard"},
		{Title: "A title: with a colon", Text: "[feedback] starts like a type"},
		{Title: "[user] bracket title", Text: "x"},
		{Title: "10:04 meeting", Text: "agenda"},
		{Title: "Ends with a period.", Text: "x"},
		{Title: "This title is far longer than eighty characters so that a plain title would not be recognised at all", Text: "x"},
		{Title: "**bold**", Text: "*stars*"},
		{Text: `\ leading backslash`},
		{Text: "Why: looks like a title"},
		{Text: "first\n\n  indented\nlast\n\ttab"},
		{Time: "23:59", Type: typesx.User, Title: "Only title"},
		{Text: "1. numbered inside"},
		{Text: "# not a heading"},
		{Text: "---"},
	}
	for _, want := range tests {
		t.Run(want.Title+want.Text, func(t *testing.T) {
			text := Format(want)
			got, problems := Parse([]byte(text), testFile)
			if len(got) != 1 || len(problems) != 0 {
				t.Fatalf("Parse(%q) = %+v, %v; want one entry, no problems", text, got, problems)
			}
			want.Date = "2026-11-22"
			if diff := cmp.Diff(want, got[0], ignorePlace, cmpIgnoreLine); diff != "" {
				t.Errorf("round trip of %q mismatch (-want +got):\n%s", text, diff)
			}
			if got[0].End != int64(len(text)) {
				t.Errorf("got End %d, want %d", got[0].End, len(text))
			}
		})
	}
}
