package typesx

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Type
		ok   bool
	}{
		{"user", User, true},
		{"FEEDBACK", Feedback, true},
		{"  Reference ", Reference, true},
		{"project", Project, true},
		{"projects", "", false},
		{"", "", false},
		{"fact", "", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Fatalf("Parse(%q) = %q, %v; want %q, ok=%v", tc.in, got, err, tc.want, tc.ok)
			}
			var ute *UnknownTypeError
			if !tc.ok && (!errors.As(err, &ute) || !strings.Contains(err.Error(), "user, feedback, reference, project")) {
				t.Errorf("error %v does not list the valid types", err)
			}
		})
	}
}

func TestEveryTypeHasMeaningAndAging(t *testing.T) {
	for i, typ := range Types {
		if typ.Meaning() == "" || typ.Aging().Label == "" || typ.Aging().ReviewAfter <= 0 {
			t.Errorf("%s lacks a meaning or aging", typ)
		}
		if typ.Rank() != i || !typ.Valid() {
			t.Errorf("%s: rank %d, valid %v", typ, typ.Rank(), typ.Valid())
		}
	}
	if Project.Aging().ReviewAfter >= User.Aging().ReviewAfter {
		t.Error("project facts must age faster than facts about the user")
	}
	if Type("x").Rank() != len(Types) {
		t.Error("unknown types must sort last")
	}
}

func TestParseScope(t *testing.T) {
	if s, err := ParseScope("Project"); err != nil || s != ScopeProject {
		t.Errorf("ParseScope(Project) = %q, %v", s, err)
	}
	if _, err := ParseScope("global"); err == nil {
		t.Error("ParseScope(global) succeeded")
	}
}
