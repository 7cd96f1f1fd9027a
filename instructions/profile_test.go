package instructions

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

func userProfiles(t *testing.T, src string) map[string]*yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	m := map[string]*yaml.Node{}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		m[root.Content[i].Value] = root.Content[i+1]
	}
	return m
}

func TestLookupBuiltin(t *testing.T) {
	for _, name := range []string{"generic", "claude", "codex", "gemini", "amp", "amplifier", "deepagents"} {
		t.Run(name, func(t *testing.T) {
			p, err := Lookup(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != name || len(p.ProjectNames) == 0 {
				t.Errorf("got %+v", p)
			}
		})
	}
	p, err := Lookup("", nil)
	if err != nil || p.Name != DefaultProfile {
		t.Errorf("Lookup(\"\") = %s, %v; want %s", p.Name, err, DefaultProfile)
	}
}

func TestLookupUser(t *testing.T) {
	user := userProfiles(t, `
mygemini:
  extends: gemini
  project_names: [GEMINI.md, AGENTS.md]
  max_total_bytes: 1000
chained:
  extends: mygemini
  import_depth: 2
plain:
  project_names: [NOTES.md]
typo:
  projet_names: [X.md]
loop1: {extends: loop2}
loop2: {extends: loop1}
badwalk: {walk: sideways}
negative: {import_depth: -1}
`)
	want := Builtin()["gemini"]
	want.Name, want.Extends = "chained", "mygemini"
	want.ProjectNames = []string{"GEMINI.md", "AGENTS.md"}
	want.MaxTotalBytes, want.ImportDepth = 1000, 2
	got, err := Lookup("chained", user)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chained (-want +got):\n%s", diff)
	}
	plain, err := Lookup("plain", user)
	if err != nil || plain.ImportDepth != 0 || !cmp.Equal(plain.ProjectNames, []string{"NOTES.md"}) {
		t.Errorf("plain = %+v, %v", plain, err)
	}
	errs := map[string]string{
		"typo":     `unknown key "projet_names"`,
		"loop1":    "extends cycle",
		"badwalk":  `walk "sideways"`,
		"negative": "must not be negative",
		"nosuch":   `unknown profile "nosuch"`,
	}
	for name, msg := range errs {
		t.Run(name, func(t *testing.T) {
			_, err := Lookup(name, user)
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("err = %v, want one containing %q", err, msg)
			}
		})
	}
	var upe *UnknownProfileError
	if _, err := Lookup("nosuch", user); !errors.As(err, &upe) || !strings.Contains(err.Error(), "mygemini") {
		t.Errorf("err = %v, want an UnknownProfileError listing user profiles", err)
	}
}
