package index

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memdir/memdir/frontmatter"
)

var fuzzSeeds = []string{
	"",
	"# Memory\n\n- [Testing policy](feedback_testing_policy.md) — Integration tests hit a real database\n",
	"# M\r\n\r\n* [A](user_a.md): h\r\n+ [B](b.md) - x\r\n",
	"## Feedback\nnote\n\n## Project\n- [P](project_p.md)\n",
	"<!-- c\n- [C](c.md)\n-->\n```\n- [D](d.md)\n```\n- [E \\] x](e.md)\n",
	"- [a [b] c](<a.md>) –\n- [x](https://x.md)\n- [ ] task\n---\n",
	"```\nunclosed\n- [U](user_u.md)",
	"<!--\n",
	"- [A](a.md)\n- [A](a.md)\n\n\n",
	"-\t[\\\\](a.md)\r",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ix := Parse(data)
		want := ix.Entries()
		out := ix.Bytes()
		if diff := cmp.Diff(want, Parse(out).Entries(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("rendered index re-parses to other entries (-want +got):\n%s\nin:  %q\nout: %q", diff, data, out)
		}
		for _, caps := range []Caps{DefaultCaps, {Lines: 3, Bytes: 40}} {
			checkLoad(t, data, caps, len(want))
		}
		Check(data, Disk{Topics: []string{"user_a.md"}}, DefaultCaps)

		e := Entry{Title: "Fuzz ] title", File: "user_fuzz.md", Hook: "a hook"}
		ix.Upsert(e)
		got, ok := Parse(ix.Bytes()).Lookup(e.File)
		if !ok || got != e {
			t.Fatalf("after Upsert, re-parse finds %v, %v\nin:  %q\nout: %q", got, ok, data, ix.Bytes())
		}
		ix.Remove(e.File)
		after := Parse(ix.Bytes()).Entries()
		if _, ok := Parse(ix.Bytes()).Lookup(e.File); ok {
			t.Fatalf("after Remove, entry still there: %q", ix.Bytes())
		}
		var others []Entry
		for _, x := range want {
			if x.File != e.File {
				others = append(others, x)
			}
		}
		if diff := cmp.Diff(others, after, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Upsert and Remove changed other entries (-want +got):\n%s\nin: %q", diff, data)
		}
	})
}

// checkLoad asserts that Load keeps a prefix of data within caps and
// accounts for every entry.
func checkLoad(t *testing.T, data []byte, caps Caps, entries int) {
	t.Helper()
	v := Load(data, caps)
	kept := strings.TrimSuffix(strings.TrimSuffix(v.Text, v.Warning), "\n\n")
	if v.Truncated == (v.Warning == "") {
		t.Fatalf("Truncated %v with warning %q", v.Truncated, v.Warning)
	}
	if v.Truncated && (v.LoadedLines > caps.Lines || v.LoadedBytes > caps.Bytes) {
		t.Fatalf("kept %d lines, %d units over caps %+v", v.LoadedLines, v.LoadedBytes, caps)
	}
	if utf8.Valid(data) && !strings.Contains(Scrub(string(data)), kept) {
		t.Fatalf("kept text is not part of the index")
	}
	if len(v.Loaded)+len(v.Dropped) != entries-inFrontmatter(data) {
		t.Fatalf("loaded %d + dropped %d != %d entries", len(v.Loaded), len(v.Dropped), entries)
	}
}

// inFrontmatter counts the entries in the part of data Claude skips.
func inFrontmatter(data []byte) int {
	raw := string(data)
	lead := strings.Count(raw[:len(raw)-len(strings.TrimLeftFunc(frontmatter.StripClaude(raw), isJSSpace))], "\n")
	n := 0
	for i, l := range Parse(data).Lines {
		if l.Entry != nil && i < lead {
			n++
		}
	}
	return n
}

func FuzzFormatEntry(f *testing.F) {
	f.Add("Testing policy", "Integration tests hit a real database")
	f.Add(`a]b[c\`, "- x")
	f.Add(" \r\n ", "\n")
	f.Add(`\\`, "— — x")
	f.Add("[[x]]", ": y")
	f.Fuzz(func(t *testing.T, title, hook string) {
		e := Entry{Title: title, File: "project_x.md", Hook: hook}
		line := FormatEntry(e)
		got, ok := parseEntry(line)
		if !ok {
			t.Fatalf("FormatEntry(%+v) = %q is not an entry", e, line)
		}
		if got != clean(e) {
			t.Fatalf("%q parses to %+v, want %+v", line, got, clean(e))
		}
		if n := len(Parse([]byte(line)).Entries()); n != 1 {
			t.Fatalf("%q parses to %d entries", line, n)
		}
	})
}
