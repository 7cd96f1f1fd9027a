package index

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memdir/memdir/typesx"
)

func meta(file, title string, t typesx.Type, day int) Meta {
	return Meta{Entry: Entry{Title: title, File: file}, Type: t, Modified: time.Date(2026, 1, day, 0, 0, 0, 0, time.UTC)}
}

func TestSort(t *testing.T) {
	metas := []Meta{
		meta("project_old.md", "Old", typesx.Project, 1),
		meta("notes.md", "Notes", "", 9),
		meta("MEMORY-user.md", "More user memories", typesx.User, 0),
		meta("reference_r.md", "R", typesx.Reference, 1),
		meta("project_new.md", "New", typesx.Project, 5),
		meta("user_b.md", "b", typesx.User, 1),
		meta("project_tie_b.md", "Tie", typesx.Project, 3),
		meta("feedback_f.md", "F", "", 1),
		meta("user_a.md", "A", typesx.User, 1),
		meta("project_tie_a.md", "Tie", typesx.Project, 3),
	}
	Sort(metas)
	want := []string{"user_a.md", "user_b.md", "MEMORY-user.md", "feedback_f.md", "reference_r.md",
		"project_new.md", "project_tie_a.md", "project_tie_b.md", "project_old.md", "notes.md"}
	if diff := cmp.Diff(want, filesOf(metas)); diff != "" {
		t.Errorf("Sort order mismatch (-want +got):\n%s", diff)
	}
}

func TestRebuild(t *testing.T) {
	metas := []Meta{
		meta("project_p.md", "P", typesx.Project, 1),
		meta("user_u.md", "U", typesx.User, 1),
		meta("feedback_f.md", "F", typesx.Feedback, 1),
		meta("user_u.md", "U again", typesx.User, 1),
	}
	metas[0].Entry.Hook = "new hook"
	tests := []struct {
		name, old, want string
	}{
		{"empty", "", "- [U](user_u.md)\n- [F](feedback_f.md)\n- [P](project_p.md) — new hook\n"},
		{"title heading", "# Memory\n", "# Memory\n\n- [U](user_u.md)\n- [F](feedback_f.md)\n- [P](project_p.md) — new hook\n"},
		{
			"entries replaced where they were, notes kept",
			"# Memory\n- [Gone](user_gone.md)\n- [P](project_p.md) — old hook\n\nA note.\n",
			"# Memory\n- [U](user_u.md)\n- [F](feedback_f.md)\n- [P](project_p.md) — new hook\n\nA note.\n",
		},
		{
			"type headings",
			"# Memory\n\n## Project\n- [P](project_p.md)\n\n## User\n\n## Feedback\nRules.\n",
			"# Memory\n\n## Project\n- [P](project_p.md) — new hook\n\n## User\n\n- [U](user_u.md)\n\n## Feedback\nRules.\n\n- [F](feedback_f.md)\n",
		},
		{"crlf", "# M\r\n", "# M\r\n\r\n- [U](user_u.md)\r\n- [F](feedback_f.md)\r\n- [P](project_p.md) — new hook\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var old *Index
			if tc.old != "" {
				old = Parse([]byte(tc.old))
			}
			got := string(Rebuild(old, metas).Bytes())
			if got != tc.want {
				t.Errorf("Rebuild:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestFit(t *testing.T) {
	metas := testMetas(300, 60)
	metas[4].Entry.Hook = strings.Repeat("a long hook with many words ", 10)
	old := Parse([]byte("# Memory\n\nNotes a person wrote.\n"))
	main, overflow := Fit(old, metas, DefaultCaps)
	data := main.Bytes()
	if p := Measure(data, DefaultCaps); p.Lines > 140 || p.Bytes > 17500 {
		t.Errorf("fitted index is %d lines and %d units; want <= 140 and <= 17,500", p.Lines, p.Bytes)
	}
	if !strings.HasPrefix(string(data), "# Memory\n\nNotes a person wrote.\n") {
		t.Errorf("notes not kept:\n%.200s", data)
	}
	var got []string
	pointers := map[string]bool{}
	for _, e := range main.Entries() {
		if ty, ok := IsOverflowFile(e.File); ok {
			pointers[e.File] = true
			if want := len(overflow[ty]); !strings.HasPrefix(e.Hook, fmt.Sprintf("%d more %s topics", want, ty)) {
				t.Errorf("pointer %q does not count %d entries", e.Hook, want)
			}
			continue
		}
		got = append(got, e.File)
	}
	for ty, es := range overflow {
		if !pointers[OverflowFile(ty)] {
			t.Errorf("no pointer for overflow type %s", ty)
		}
		for _, e := range es {
			got = append(got, e.File)
		}
	}
	if diff := cmp.Diff(filesOf(metas), got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("main + overflow entries differ from input (-want +got):\n%s", diff)
	}
	if len(overflow[typesx.Project]) == 0 || len(overflow[typesx.User]) != 0 {
		t.Errorf("overflow = %d user, %d project; want oldest projects first", len(overflow[typesx.User]), len(overflow[typesx.Project]))
	}
	if e, ok := main.Lookup(metas[4].Entry.File); !ok || utf8.RuneCountInString(FormatEntry(e)) > MaxLineLen || !strings.HasSuffix(e.Hook, "…") {
		t.Errorf("long hook not shortened: %q", FormatEntry(e))
	}
	if p := Measure(data, DefaultCaps); p.OverWarn {
		t.Errorf("fitted index still warns: %s", p.Message())
	}
}

func TestFitSmallIndexUnchanged(t *testing.T) {
	metas := testMetas(10, 20)
	main, overflow := Fit(nil, metas, DefaultCaps)
	if len(overflow) != 0 || len(main.Entries()) != 10 {
		t.Errorf("Fit moved entries of a small index: %d kept, overflow %v", len(main.Entries()), overflow)
	}
}

func TestShortenEntry(t *testing.T) {
	tests := []struct {
		name string
		in   Entry
		want string
	}{
		{"short kept", Entry{"T", "user_t.md", "short hook"}, "short hook"},
		{"cut at word", Entry{"T", "user_t.md", strings.Repeat("word ", 40)}, strings.TrimSpace(strings.Repeat("word ", 26)) + "…"},
		{"huge title drops hook", Entry{strings.Repeat("t", 160), "user_t.md", "hook"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := shortenEntry(tc.in)
			if got.Hook != tc.want {
				t.Errorf("hook = %q, want %q", got.Hook, tc.want)
			}
			if got.Hook != "" && utf8.RuneCountInString(FormatEntry(got)) > MaxLineLen {
				t.Errorf("line still %d runes", utf8.RuneCountInString(FormatEntry(got)))
			}
		})
	}
}

func TestOverflowFiles(t *testing.T) {
	tests := []struct {
		name string
		t    typesx.Type
		ok   bool
	}{
		{"MEMORY-project.md", typesx.Project, true},
		{"MEMORY-user.md", typesx.User, true},
		{"MEMORY-other.md", "", false},
		{"MEMORY.md", "", false},
		{"memory-user.md", "", false},
		{"MEMORY-user.txt", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := IsOverflowFile(tc.name)
			if got != tc.t || ok != tc.ok {
				t.Errorf("IsOverflowFile = %q, %v; want %q, %v", got, ok, tc.t, tc.ok)
			}
		})
	}
	es := []Entry{{"A", "project_a.md", "h"}, {"B", "project_b.md", ""}}
	got := string(RenderOverflow(typesx.Project, es))
	want := "# More project memories\n\n- [A](project_a.md) — h\n- [B](project_b.md)\n"
	if got != want {
		t.Errorf("RenderOverflow:\n got %q\nwant %q", got, want)
	}
	if diff := cmp.Diff(es, Parse([]byte(got)).Entries()); diff != "" {
		t.Errorf("overflow file does not parse back (-want +got):\n%s", diff)
	}
}
