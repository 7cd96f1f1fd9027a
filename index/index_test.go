package index

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/memdir/memdir/typesx"
)

func TestParseEntry(t *testing.T) {
	tests := []struct {
		name string
		line string
		want *Entry
	}{
		{"canonical", "- [Testing policy](feedback_testing.md) — Real DB only", &Entry{"Testing policy", "feedback_testing.md", "Real DB only"}},
		{"en dash", "- [A](a.md) – hook", &Entry{"A", "a.md", "hook"}},
		{"hyphen", "- [A](a.md) - hook", &Entry{"A", "a.md", "hook"}},
		{"colon", "- [A](a.md): hook", &Entry{"A", "a.md", "hook"}},
		{"no hook", "- [A](a.md)", &Entry{"A", "a.md", ""}},
		{"no separator", "- [A](a.md) hook text", &Entry{"A", "a.md", "hook text"}},
		{"star indented", "  * [A](sub/a.md) — h", &Entry{"A", "sub/a.md", "h"}},
		{"plus tab", "+\t[A](a.md)", &Entry{"A", "a.md", ""}},
		{"angle target", "- [A](<a.md>) — h", &Entry{"A", "a.md", "h"}},
		{"upper ext", "- [A](A.MD)", &Entry{"A", "A.MD", ""}},
		{"escaped bracket", `- [a \] b](a.md)`, &Entry{"a ] b", "a.md", ""}},
		{"nested brackets", "- [a [b] c](a.md)", &Entry{"a [b] c", "a.md", ""}},
		{"trailing CR", "- [A](a.md) — h\r", &Entry{"A", "a.md", "h"}},
		{"url", "- [Docs](https://x.com/a.md)", nil},
		{"mailto", "- [M](mailto:a.md)", nil},
		{"absolute", "- [A](/etc/a.md)", nil},
		{"not md", "- [A](a.txt)", nil},
		{"space in target", `- [A](a.md "title")`, nil},
		{"no bullet", "[A](a.md)", nil},
		{"text first", "- see [A](a.md)", nil},
		{"task", "- [ ] todo", nil},
		{"bullet no space", "-[A](a.md)", nil},
		{"unclosed", "- [A](a.md", nil},
		{"empty target", "- [A]()", nil},
		{"bare ext", "- [A](.md)", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse([]byte(tc.line)).Lines[0].Entry
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Parse(%q) entry mismatch (-want +got):\n%s", tc.line, diff)
			}
		})
	}
}

func TestFormatEntry(t *testing.T) {
	tests := []struct {
		name  string
		in    Entry
		line  string
		clean Entry
	}{
		{"plain", Entry{"A", "a.md", "h"}, "- [A](a.md) — h", Entry{"A", "a.md", "h"}},
		{"no hook", Entry{"A", "a.md", ""}, "- [A](a.md)", Entry{"A", "a.md", ""}},
		{"brackets", Entry{`x]y[z\`, "a.md", ""}, `- [x\]y\[z\\](a.md)`, Entry{`x]y[z\`, "a.md", ""}},
		{"newlines", Entry{"a\nb", "a.md", " one\r\ntwo\n"}, "- [a b](a.md) — one two", Entry{"a b", "a.md", "one two"}},
		{"hook looks like separator", Entry{"A", "a.md", "- x"}, "- [A](a.md) — - x", Entry{"A", "a.md", "- x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FormatEntry(tc.in)
			if got != tc.line {
				t.Errorf("FormatEntry = %q, want %q", got, tc.line)
			}
			back, ok := parseEntry(got)
			if !ok {
				t.Fatalf("parseEntry(%q) is not an entry", got)
			}
			if diff := cmp.Diff(tc.clean, back); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEntryType(t *testing.T) {
	tests := map[string]typesx.Type{
		"user_role.md":          typesx.User,
		"project_x.md":          typesx.Project,
		"sub/feedback_a.md":     typesx.Feedback,
		"MEMORY-reference.md":   typesx.Reference,
		"notes.md":              "",
		"other_x.md":            "",
		"MEMORY-other.md":       "",
		"_user.md":              "",
		"reference_a_b_c_d.md":  typesx.Reference,
		"referencex_a_b_c_d.md": "",
	}
	for file, want := range tests {
		t.Run(file, func(t *testing.T) {
			if got := (Entry{File: file}).Type(); got != want {
				t.Errorf("Type() = %q, want %q", got, want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"hand written", "# Memory\n\nSome note a person wrote.\n\n## Feedback\n- [A](feedback_a.md) — h\n*  [B](feedback_b.md): odd bullet\n\n<!-- comment\n- [C](c.md) -->\n```\n- [D](d.md)\n```\n", ""},
		{"crlf", "# Memory\r\n\r\n- [A](user_a.md) — h\r\nnote\r\n", ""},
		{"no final newline", "# M\n- [A](a.md)", "# M\n- [A](a.md)\n"},
		{"trailing blanks", "# M\n- [A](a.md)\n\n\n  \n", "# M\n- [A](a.md)\n"},
		{"only blanks", "\n\n", ""},
		{"stray CR in LF file", "a\nb\r\nc\n", ""},
		{"mixed crlf file", "a\r\nb\nc\r\n", "a\r\nb\r\nc\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if tc.name == "only blanks" {
				want = ""
			}
			if got := string(Parse([]byte(tc.in)).Bytes()); got != want {
				t.Errorf("round trip:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestParseSkipsCommentsAndCode(t *testing.T) {
	in := "<!-- comment\n- [C](c.md) -->\n```\n- [D](d.md)\n```\n- [E](e.md)\n"
	got := Parse([]byte(in)).Entries()
	want := []Entry{{"E", "e.md", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Entries mismatch (-want +got):\n%s", diff)
	}
}

func TestLookupRemove(t *testing.T) {
	ix := Parse([]byte("# M\n- [A](a.md) — one\n- [B](b.md)\n- [A again](a.md)\n"))
	if e, ok := ix.Lookup("a.md"); !ok || e.Title != "A" {
		t.Errorf("Lookup(a.md) = %v, %v; want A, true", e, ok)
	}
	if _, ok := ix.Lookup("z.md"); ok {
		t.Errorf("Lookup(z.md) found an entry")
	}
	if !ix.Remove("a.md") {
		t.Errorf("Remove(a.md) = false, want true")
	}
	if ix.Remove("a.md") {
		t.Errorf("second Remove(a.md) = true, want false")
	}
	if got, want := string(ix.Bytes()), "# M\n- [B](b.md)\n"; got != want {
		t.Errorf("after Remove:\n got %q\nwant %q", got, want)
	}
	if got := ix.Lines[1].No; got != 2 {
		t.Errorf("line number after Remove = %d, want 2", got)
	}
}

func TestUpsert(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		entry     Entry
		wantAdded bool
		want      string
	}{
		{"empty index", "", Entry{"A", "user_a.md", "h"}, true, "- [A](user_a.md) — h\n"},
		{"replace in place", "# M\n* [Old](user_a.md): old\nnote\n", Entry{"New", "user_a.md", "new"}, false, "# M\n- [New](user_a.md) — new\nnote\n"},
		{"unchanged keeps raw", "# M\n* [A](user_a.md): h\n", Entry{"A", "user_a.md", "h"}, false, "# M\n* [A](user_a.md): h\n"},
		{"replace drops duplicates", "- [A](user_a.md)\n- [B](user_b.md)\n- [A2](user_a.md)\n", Entry{"A", "user_a.md", "x"}, false, "- [A](user_a.md) — x\n- [B](user_b.md)\n"},
		{"end of own group", "- [U](user_u.md)\n- [F](feedback_f.md)\n- [P](project_p.md)\n", Entry{"G", "feedback_g.md", ""}, true, "- [U](user_u.md)\n- [F](feedback_f.md)\n- [G](feedback_g.md)\n- [P](project_p.md)\n"},
		{"under heading", "# M\n\n## Feedback\n\n## Project notes\n- [P](project_p.md)\n", Entry{"F", "feedback_f.md", ""}, true, "# M\n\n## Feedback\n\n- [F](feedback_f.md)\n\n## Project notes\n- [P](project_p.md)\n"},
		{"under plural heading with note", "# User memories\nAbout me.\n\n# References\n", Entry{"R", "reference_r.md", ""}, true, "# User memories\nAbout me.\n\n# References\n- [R](reference_r.md)\n"},
		{"under heading after note", "## FEEDBACK\nnote\n## Project\n", Entry{"F", "feedback_f.md", ""}, true, "## FEEDBACK\nnote\n\n- [F](feedback_f.md)\n## Project\n"},
		{"after closest earlier type", "- [U](user_u.md)\n\n- [P](project_p.md)\n", Entry{"R", "reference_r.md", ""}, true, "- [U](user_u.md)\n- [R](reference_r.md)\n\n- [P](project_p.md)\n"},
		{"before closest later type", "# M\n- [P](project_p.md)\n", Entry{"U", "user_u.md", ""}, true, "# M\n- [U](user_u.md)\n- [P](project_p.md)\n"},
		{"untyped after last typed", "# M\n\n- [P](project_p.md)\nnote\n\n", Entry{"N", "notes.md", ""}, true, "# M\n\n- [P](project_p.md)\n- [N](notes.md)\nnote\n"},
		{"untyped at end", "# M\nnote\n\n", Entry{"N", "notes.md", ""}, true, "# M\nnote\n\n- [N](notes.md)\n"},
		{"end after heading", "# Memory\n\n", Entry{"U", "user_u.md", ""}, true, "# Memory\n\n- [U](user_u.md)\n"},
		{"not into open code block", "# M\n```\ncode\n", Entry{"U", "user_u.md", ""}, true, "# M\n\n- [U](user_u.md)\n\n```\ncode\n"},
		{"crlf kept", "# M\r\n- [U](user_u.md)\r\n", Entry{"V", "user_v.md", ""}, true, "# M\r\n- [U](user_u.md)\r\n- [V](user_v.md)\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := Parse([]byte(tc.in))
			if got := ix.Upsert(tc.entry); got != tc.wantAdded {
				t.Errorf("Upsert added = %v, want %v", got, tc.wantAdded)
			}
			if got := string(ix.Bytes()); got != tc.want {
				t.Errorf("after Upsert:\n got %q\nwant %q", got, tc.want)
			}
			for i, l := range ix.Lines {
				if l.No != i+1 {
					t.Fatalf("line %d numbered %d", i+1, l.No)
				}
			}
			if _, ok := Parse(ix.Bytes()).Lookup(tc.entry.File); !ok {
				t.Errorf("re-parsed index lost %s", tc.entry.File)
			}
		})
	}
}

func TestUpsertManyKeepsGroups(t *testing.T) {
	ix := Parse([]byte("# Memory\n"))
	for _, f := range []string{"project_a.md", "user_a.md", "feedback_a.md", "project_b.md", "reference_a.md", "user_b.md"} {
		ix.Upsert(Entry{Title: f, File: f})
	}
	var got []string
	for _, e := range ix.Entries() {
		got = append(got, e.File)
	}
	want := []string{"user_a.md", "user_b.md", "feedback_a.md", "reference_a.md", "project_a.md", "project_b.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order mismatch (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(string(ix.Bytes()), "# Memory\n\n- [user_a.md]") {
		t.Errorf("heading not kept first:\n%s", ix.Bytes())
	}
}

// TestUpsertKeepsLineShort checks that a line Upsert writes is at most
// MaxLineLen characters, so Check never warns about memdir's own lines,
// that KeepTitle gives the same entry (a caller comparing the two sees no
// change), and that a short hook is written whole.
func TestUpsertKeepsLineShort(t *testing.T) {
	long := strings.Repeat("mocks hid a broken migration, ", 8)
	tests := []struct{ name, hook string }{
		{"short", "Integration tests hit a real database"},
		{"long", long},
		{"one long word", strings.Repeat("x", 200)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := Parse(nil)
			e := Entry{Title: "Testing policy", File: "feedback_testing_policy.md", Hook: tc.hook}
			ix.Upsert(e)
			line := strings.TrimSpace(string(ix.Bytes()))
			if n := utf8.RuneCountInString(line); n > MaxLineLen {
				t.Errorf("line is %d characters: %q", n, line)
			}
			if len(FormatEntry(e)) <= MaxLineLen && line != FormatEntry(e) {
				t.Errorf("short line changed: %q", line)
			}
			got, _ := ix.Lookup(e.File)
			if kept := ix.KeepTitle(e); kept != got {
				t.Errorf("KeepTitle = %+v, line holds %+v", kept, got)
			}
			for _, p := range Check(ix.Bytes(), Disk{Topics: []string{e.File}}, DefaultCaps) {
				if p.Kind == KindLongLine {
					t.Errorf("Check: %s", p.Message)
				}
			}
		})
	}
}
