package settings

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/typesx"
)

func TestTeamTypes(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []typesx.Type
		invalid    bool
	}{
		{"unset", "", nil, false},
		{"list", "capture:\n  team_types: [project, reference]\n", []typesx.Type{typesx.Project, typesx.Reference}, false},
		{"block list", "capture:\n  team_types:\n    - Reference\n    - reference\n", []typesx.Type{typesx.Reference}, false},
		{"text", "capture.team_types: project, reference\n", []typesx.Type{typesx.Project, typesx.Reference}, false},
		{"empty list", "capture.team_types: []\n", nil, false},
		{"unknown type", "capture.team_types: [project, gossip]\n", nil, true},
		{"nested list", "capture.team_types: [[project]]\n", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.yaml != "" {
				f.write(t, User, tc.yaml)
			}
			s, err := Load(f.options())
			var inv *InvalidError
			if tc.invalid {
				if !errors.As(err, &inv) {
					t.Fatalf("Load = %v, want an *InvalidError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, s.Types("capture.team_types")); diff != "" {
				t.Errorf("Types (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateTypes(t *testing.T) {
	for _, tc := range []struct {
		value string
		ok    bool
	}{
		{"", true}, {"project", true}, {"[project, reference]", true}, {"user,feedback", true},
		{"projects", false}, {"project;reference", false},
	} {
		if err := Validate("capture.team_types", tc.value); (err == nil) != tc.ok {
			t.Errorf("Validate(%q) = %v, want ok %v", tc.value, err, tc.ok)
		}
	}
}
