package memdir

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/typesx"
)

const handWritten = `---
name: Testing policy
description: Integration tests hit a real database
type: Feedback
# why this exists
incident: INC-2041  # the outage
owner: platform
tags: [db, tests]
---

Body line one.

**Why:** reasons.
`

func TestParseTopic(t *testing.T) {
	got, err := ParseTopic("feedback_testing.md", []byte(handWritten))
	if err != nil {
		t.Fatal(err)
	}
	want := &Topic{File: "feedback_testing.md", Name: "Testing policy", Description: "Integration tests hit a real database",
		Type: typesx.Feedback, Tags: []string{"db", "tests"}, Body: "Body line one.\n\n**Why:** reasons.\n"}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Topic{})); diff != "" {
		t.Errorf("ParseTopic mismatch (-want +got):\n%s", diff)
	}
}

func TestParseTopicErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line       int
		msg        string
	}{
		{"no frontmatter", "# Title\n", 1, "no frontmatter"},
		{"not closed", "---\nname: x\n", 1, "not closed"},
		{"bad yaml", "---\nname: x\ntype: x\n  bad: indent\n---\n", 4, "frontmatter"},
		{"not a mapping", "---\n- a\n- b\n---\n", 2, "not a mapping"},
		{"empty", "---\n---\n", 2, "empty"},
		{"no name", "---\ndescription: d\ntype: user\n---\n", 2, "needs a name"},
		{"no description", "---\nname: n\ntype: user\n---\n", 2, "needs a description"},
		{"no type", "---\nname: n\ndescription: d\n---\n", 2, "needs a type"},
		{"bad type", "---\nname: n\ndescription: d\ntype: fact\n---\n", 4, "unknown type"},
		{"bad time", "---\nname: n\ndescription: d\ntype: user\ncreated: yesterday\n---\n", 5, "RFC 3339"},
		{"bad expires", "---\nname: n\ndescription: d\ntype: project\nexpires: soon\n---\n", 5, "not a date"},
		{"name is a map", "---\nname: {a: b}\ndescription: d\ntype: user\n---\n", 2, "single value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTopic("x.md", []byte(tc.data))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got line %d %q, want line %d containing %q", pe.Line, pe.Msg, tc.line, tc.msg)
			}
		})
	}
}

func TestMarshalKeepsUnknownKeysAndComments(t *testing.T) {
	tp, err := ParseTopic("feedback_testing.md", []byte(handWritten))
	if err != nil {
		t.Fatal(err)
	}
	tp.Description = "Tests hit a real database, never mocks"
	tp.Modified = time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	out, err := tp.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `---
name: Testing policy
description: Tests hit a real database, never mocks
type: feedback
# why this exists
incident: INC-2041 # the outage
owner: platform
tags: [db, tests]
modified: 2026-11-22T10:04:05Z
---

Body line one.

**Why:** reasons.
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("Marshal mismatch (-want +got):\n%s", diff)
	}
	again, err := ParseTopic("feedback_testing.md", out)
	if err != nil {
		t.Fatal(err)
	}
	if again.Description != tp.Description || !again.Modified.Equal(tp.Modified) {
		t.Errorf("round trip lost fields: %+v", again)
	}
}

func TestMarshalNewTopic(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	tp := &Topic{File: "project_x.md", Name: "Release: v2", Description: "Ships #soon", Type: typesx.Project,
		Created: now, Modified: now, Private: true, Expires: "2026-12-01", Tags: []string{"a"}, Body: "text\n"}
	out, err := tp.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseTopic("project_x.md", out)
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, out)
	}
	if diff := cmp.Diff(tp, got, cmpopts.IgnoreUnexported(Topic{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(string(out), "---\nname: 'Release: v2'\n") {
		t.Errorf("name not quoted safely:\n%s", out)
	}
	if !tp.Expired(now.AddDate(0, 0, 10)) || tp.Expired(now) {
		t.Error("Expired is wrong around 2026-12-01")
	}
}

// FuzzParseTopic checks that the frontmatter parser never panics and that
// whatever it accepts survives a Marshal round trip.
func FuzzParseTopic(f *testing.F) {
	f.Add([]byte(handWritten))
	f.Add([]byte("---\nname: a\ndescription: b\ntype: user\n---\n"))
	f.Add([]byte("\xef\xbb\xbf---\r\nname: a\r\ndescription: b\r\ntype: user\r\n---\r\nbody"))
	f.Add([]byte("---\nname: [x\n---\n"))
	f.Add([]byte("---\nname: a\ndescription: |\n  multi\n  line\ntype: project\nexpires: 2026-01-01\nprivate: true\ntags: a, b\n...\nbody\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tp, err := ParseTopic("f.md", data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *ParseError: %v", err)
			}
			return
		}
		out, err := tp.Marshal()
		if err != nil {
			return // yaml.v3 cannot encode some exotic nodes it decoded
		}
		again, err := ParseTopic("f.md", out)
		if err != nil {
			t.Fatalf("re-parse of Marshal output failed: %v\n%q", err, out)
		}
		if again.Name != tp.Name || again.Description != tp.Description || again.Type != tp.Type || again.Private != tp.Private {
			t.Fatalf("round trip changed fields: %+v vs %+v", tp, again)
		}
	})
}

func TestClaudeLayout(t *testing.T) {
	src := "---\nname: testing-policy\ndescription: Integration tests hit a real database\nmetadata:\n  type: feedback\n---\n\nNo mocks.\n"
	for _, fast := range []bool{true, false} {
		data := src
		if !fast {
			data = strings.Replace(src, "name: testing-policy", "name: 'testing-policy'", 1)
		}
		tp, err := ParseTopic("feedback_testing.md", []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if tp.Type != typesx.Feedback || tp.Name != "testing-policy" {
			t.Fatalf("fast %v: type %q name %q", fast, tp.Type, tp.Name)
		}
		tp.Description = "Real database, never mocks"
		out, err := tp.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(data, "Integration tests hit a real database", "Real database, never mocks", 1)
		if string(out) != want {
			t.Errorf("fast %v: Marshal kept layout badly:\n%s\nwant:\n%s", fast, out, want)
		}
	}
	// metadata.type wins over a top-level type, as in Claude Code.
	tp, err := ParseTopic("x.md", []byte("---\nname: a\ndescription: b\ntype: user\nmetadata:\n  type: project\n---\n"))
	if err != nil || tp.Type != typesx.Project {
		t.Fatalf("type %q, %v; want project", tp.Type, err)
	}
}

// TestMarshalHidesTripleDashes checks that a value holding "---" neither
// ends the frontmatter for Claude Code (which stops at the first "---"
// anywhere) nor changes when memdir reads it back.
func TestMarshalHidesTripleDashes(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	tp := &Topic{File: "project_x.md", Name: "Flags --- or not", Description: "Use ---- to split, or ------",
		Type: typesx.Project, Created: now, Modified: now, Tags: []string{"a---b"}, Body: "Body --- stays as written.\n"}
	out, err := tp.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	yml, _, ok := frontmatter.SplitClaude(out)
	if !ok || !strings.Contains(string(yml), "type: project") || !strings.Contains(string(yml), "modified:") {
		t.Fatalf("Claude's reading of the frontmatter lost keys:\n%s\nfile:\n%s", yml, out)
	}
	got, err := ParseTopic("project_x.md", out)
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, out)
	}
	if diff := cmp.Diff(tp, got, cmpopts.IgnoreUnexported(Topic{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s\n%s", diff, out)
	}
}

// TestClaudeModifiedStamp checks a rewrite of a file Claude Code 2.1.332
// stamped (its WLs layout: metadata with node_type, type, originSessionId
// and modified in toISOString form) moves metadata.modified to the new
// time in Claude's form, keeps every other metadata key and its comment,
// and leaves a metadata block without a stamp as it was.
func TestClaudeModifiedStamp(t *testing.T) {
	when := time.Date(2026, 11, 25, 10, 26, 32, 123456789, time.UTC)
	tests := []struct {
		name, in, want string
	}{
		{"claude stamp updated",
			"---\nname: testing-policy\ndescription: Real database\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 3f2a\n  modified: 2026-11-20T08:00:00.000Z # by Claude\n---\n\nBody.\n",
			"  modified: 2026-11-25T10:26:32.123Z # by Claude\n"},
		{"same instant untouched",
			"---\nname: a\ndescription: b\nmetadata:\n  type: user\n  modified: 2026-11-25T10:26:32.123456789Z\n---\n",
			"  modified: 2026-11-25T10:26:32.123456789Z\n"},
		{"no claude stamp, none added",
			"---\nname: a\ndescription: b\nmetadata:\n  type: user\n---\n",
			"metadata:\n  type: user\nmodified: 2026-11-25T10:26:32Z\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp, err := ParseTopic("x.md", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			tp.Modified = when
			out, err := tp.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("Marshal:\n%s\nwant it to hold %q", out, tc.want)
			}
			for _, keep := range []string{"node_type: memory", "originSessionId: 3f2a"} {
				if strings.Contains(tc.in, keep) && !strings.Contains(string(out), keep) {
					t.Errorf("Marshal lost %q:\n%s", keep, out)
				}
			}
		})
	}
}

// Claude Code stamps metadata.modified and reads it before a top-level
// modified; so does memdir, on the fast path and the yaml path alike.
func TestMetadataModifiedWins(t *testing.T) {
	want := time.Date(2026, 11, 24, 9, 30, 0, 123e6, time.UTC)
	for _, fm := range []string{
		"name: Style\ndescription: Small PRs\nmetadata:\n  type: feedback\n  modified: 2026-11-24T09:30:00.123Z\n",
		"name: Style\ndescription: Small PRs\nmodified: 2026-11-20T10:00:00Z\nmetadata:\n  type: feedback\n  modified: 2026-11-24T09:30:00.123Z\n",
		"name: Style\ndescription: Small PRs\nmetadata:\n  type: feedback\n  modified: 2026-11-24T09:30:00.123Z\nmodified: 2026-11-20T10:00:00Z\n",
		"name: Style\ndescription: 'Small PRs'\nmetadata:\n  type: feedback\n  modified: '2026-11-24T09:30:00.123Z'\nmodified: 2026-11-20T10:00:00Z\n",
	} {
		tp, err := ParseTopic("feedback_style.md", []byte("---\n"+fm+"---\n\nBody.\n"))
		if err != nil {
			t.Fatalf("%q: %v", fm, err)
		}
		if !tp.Modified.Equal(want) {
			t.Errorf("%q: modified %v, want %v (metadata.modified)", fm, tp.Modified, want)
		}
	}
}
