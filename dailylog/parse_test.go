package dailylog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/memdir/memdir/typesx"
)

const testFile = "logs/2026/11/2026-11-22.md"

// ignorePlace leaves out where an entry sits, for tests about its content.
var ignorePlace = cmpopts.IgnoreFields(Entry{}, "File", "Offset", "End", "Hash")

func TestParseHandWritten(t *testing.T) {
	d := "2026-11-22"
	tests := []struct {
		name     string
		in       string
		want     []Entry
		problems int
	}{
		{
			name: "design example",
			in: "# 2026-11-22\n\n" +
				"- 10:04 [feedback] Testing policy: Integration tests must run against a real database, never mocks.\n" +
				"  Why: a mocked suite passed while the production migration failed.\n" +
				"- 10:20 [project] Release freeze: merge freeze begins next Thursday for the mobile cut.\n" +
				"- 11:02 remember that staging deploys need the VPN\n",
			want: []Entry{
				{Date: d, Line: 3, Time: "10:04", Type: typesx.Feedback, Title: "Testing policy",
					Text: "Integration tests must run against a real database, never mocks.\nWhy: a mocked suite passed while the production migration failed."},
				{Date: d, Line: 5, Time: "10:20", Type: typesx.Project, Title: "Release freeze",
					Text: "merge freeze begins next Thursday for the mobile cut."},
				{Date: d, Line: 6, Time: "11:02", Text: "remember that staging deploys need the VPN"},
			},
		},
		{
			name: "no time, no type, no title",
			in:   "- just a note\n* [USER] prefers tabs\n+ 9:05 Deploy: use the VPN\n1. 10:04:05 numbered\n2) another\n",
			want: []Entry{
				{Date: d, Line: 1, Text: "just a note"},
				{Date: d, Line: 2, Type: typesx.User, Text: "prefers tabs"},
				{Date: d, Line: 3, Time: "09:05", Title: "Deploy", Text: "use the VPN"},
				{Date: d, Line: 4, Time: "10:04:05", Text: "numbered"},
				{Date: d, Line: 5, Text: "another"},
			},
		},
		{
			name: "unknown bracket stays in the text",
			in:   "- 10:00 [todo] Fix: the build\n- [ ] task\n- [user]x\n",
			want: []Entry{
				{Date: d, Line: 1, Time: "10:00", Text: "[todo] Fix: the build"},
				{Date: d, Line: 2, Text: "[ ] task"},
				{Date: d, Line: 3, Text: "[user]x"},
			},
		},
		{
			name: "not a time, not a title",
			in:   "- 25:00 late\n- 10:61 odd\n- Note that this is long. Really: yes\n- Why? Because: reasons\n",
			want: []Entry{
				{Date: d, Line: 1, Text: "25:00 late"},
				{Date: d, Line: 2, Text: "10:61 odd"},
				{Date: d, Line: 3, Text: "Note that this is long. Really: yes"},
				{Date: d, Line: 4, Text: "Why? Because: reasons"},
			},
		},
		{
			name: "bold titles",
			in:   "- **Go 1.26 upgrade: plan**: do it\n- [user] **Name:** Ada\n",
			want: []Entry{
				{Date: d, Line: 1, Title: "Go 1.26 upgrade: plan", Text: "do it"},
				{Date: d, Line: 2, Type: typesx.User, Title: "Name", Text: "Ada"},
			},
		},
		{
			name: "continuation lines, blank-separated and nested",
			in:   "- first\n    deeper\n  base\n\n\n  after blanks\n  - nested bullet\n\n- second\n\tb\n\t\tc\n",
			want: []Entry{
				{Date: d, Line: 1, Text: "first\n  deeper\nbase\n\n\nafter blanks\n- nested bullet"},
				{Date: d, Line: 9, Text: "second\nb\n\tc"},
			},
		},
		{
			name: "text starts on the next line",
			in:   "- 10:04 [reference] Dashboards:\n\n  https://grafana.example\n    panel 3\n",
			want: []Entry{
				{Date: d, Line: 1, Time: "10:04", Type: typesx.Reference, Title: "Dashboards", Text: "https://grafana.example\npanel 3"},
			},
		},
		{
			name: "stray text",
			in:   "# 2026-11-22\nsome note\n  with more\n- entry\nNote: stray\n",
			want: []Entry{
				{Date: d, Line: 2, Text: "some note\nwith more"},
				{Date: d, Line: 4, Text: "entry"},
				{Date: d, Line: 5, Text: "Note: stray"},
			},
			problems: 2,
		},
		{
			name: "CRLF, BOM, no final newline",
			in:   "\ufeff# 2026-11-22\r\n\r\n- 10:04 one  \r\n  more\r\n- two",
			want: []Entry{
				{Date: d, Line: 3, Time: "10:04", Text: "one\nmore"},
				{Date: d, Line: 5, Text: "two"},
			},
		},
		{
			name: "headings inside end entries and date them",
			in:   "- one\n  cont\n## Afternoon\n  indented orphan\n---\n# 2026-11-23\n- two\n-\n",
			want: []Entry{
				{Date: d, Line: 1, Text: "one\ncont"},
				{Date: d, Line: 4, Text: "indented orphan"},
				{Date: "2026-11-23", Line: 7, Text: "two"},
			},
			problems: 3, // orphan, date mismatch, empty bullet
		},
		{
			name: "escapes",
			in:   "- \\10:04 not a time\n- [user] \\Plain: not a title\n- \\\\ backslash\n",
			want: []Entry{
				{Date: d, Line: 1, Text: "10:04 not a time"},
				{Date: d, Line: 2, Type: typesx.User, Text: "Plain: not a title"},
				{Date: d, Line: 3, Text: "\\ backslash"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := Parse([]byte(tc.in), testFile)
			if diff := cmp.Diff(tc.want, got, ignorePlace); diff != "" {
				t.Errorf("Parse entries mismatch (-want +got):\n%s", diff)
			}
			if len(problems) != tc.problems {
				t.Errorf("got %d problems %v, want %d", len(problems), problems, tc.problems)
			}
			for _, e := range got {
				if e.File != testFile || e.Hash != Hash(e) {
					t.Errorf("entry at line %d: got file %q hash %q, want %q and %q", e.Line, e.File, e.Hash, testFile, Hash(e))
				}
			}
		})
	}
}

func TestParseDateFromFileName(t *testing.T) {
	tests := []struct{ file, in, want string }{
		{"logs/2026/11/2026-11-22.md", "- a\n", "2026-11-22"},
		{"logs/2026/11/2026-11-22.md", "# 2026-11-21\n- a\n", "2026-11-21"},
		{"notes.md", "- a\n", ""},
		{"notes.md", "# 2025-01-02 (Thursday)\n- a\n", "2025-01-02"},
		{"logs/2026/02/2026-02-30.md", "- a\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.file+" "+tc.in, func(t *testing.T) {
			got, _ := Parse([]byte(tc.in), tc.file)
			if len(got) != 1 || got[0].Date != tc.want {
				t.Fatalf("got %+v, want one entry dated %q", got, tc.want)
			}
		})
	}
}

func TestParseOffsetsCoverEntries(t *testing.T) {
	entries := []Entry{
		{Time: "10:04", Type: typesx.Feedback, Title: "Testing policy", Text: "real database\nWhy: mocks lied\n\nsee the wiki"},
		{Text: "no time"},
		{Time: "11:00", Title: "Only a title"},
		{Type: typesx.Project, Text: "[user] looks like a type"},
	}
	var b strings.Builder
	b.WriteString("# 2026-11-22\n\n")
	for _, e := range entries {
		b.WriteString(Format(e))
		b.WriteString("\n") // a blank line between entries is not part of either
	}
	data := []byte(b.String())
	got, problems := Parse(data, testFile)
	if len(problems) != 0 {
		t.Fatalf("got problems %v, want none", problems)
	}
	if len(got) != len(entries) {
		t.Fatalf("got %d entries, want %d", len(got), len(entries))
	}
	for i, e := range got {
		if g, w := string(data[e.Offset:e.End]), Format(entries[i]); g != w {
			t.Errorf("entry %d: bytes [%d,%d) = %q, want %q", i, e.Offset, e.End, g, w)
		}
	}
}

func TestHash(t *testing.T) {
	a := Entry{Date: "2026-11-22", Time: "10:04", Type: typesx.User, Title: "T", Text: "x"}
	b := a
	b.File, b.Line, b.Offset, b.End = "other.md", 9, 100, 120
	if Hash(a) != Hash(b) {
		t.Errorf("place changed the hash: got %s and %s, want equal", Hash(a), Hash(b))
	}
	for _, c := range []Entry{
		{Date: "2026-11-23", Time: "10:04", Type: typesx.User, Title: "T", Text: "x"},
		{Date: "2026-11-22", Time: "10:05", Type: typesx.User, Title: "T", Text: "x"},
		{Date: "2026-11-22", Time: "10:04", Title: "T", Text: "x"},
		{Date: "2026-11-22", Time: "10:04", Type: typesx.User, Text: "T x"},
		{Date: "2026-11-22", Time: "10:04", Type: typesx.User, Title: "T", Text: "y"},
	} {
		if Hash(c) == Hash(a) {
			t.Errorf("Hash(%+v) = Hash(%+v), want different", c, a)
		}
	}
	if len(Hash(a)) != 16 {
		t.Errorf("got hash %q, want 16 hex digits", Hash(a))
	}
}

var cmpIgnoreLine = cmpopts.IgnoreFields(Entry{}, "Line")
