package memdir

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/memdir/memdir/typesx"
)

func TestValidateName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Testing policy", true},
		{"C++ tips: the good parts", true},
		{"Überprüfung", true},
		{"", false},
		{"   ", false},
		{"a/b", false},
		{`a\b`, false},
		{"../etc", false},
		{"up..there", false},
		{"nul\x00byte", false},
		{"tab\there", false},
		{"bell\a", false},
		{strings.Repeat("x", 100), true},
		{strings.Repeat("x", 101), false},
		{"\xff\xfe", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateName(tc.name)
			if (err == nil) != tc.ok {
				t.Fatalf("ValidateName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
			}
			if err != nil && !IsInput(err) {
				t.Errorf("error %v is not an input error", err)
			}
		})
	}
}

func TestFileName(t *testing.T) {
	for _, tc := range []struct {
		typ  typesx.Type
		name string
		want string
	}{
		{typesx.Feedback, "Testing policy", "feedback_testing_policy.md"},
		{typesx.User, "  Role & Goals!  ", "user_role_goals.md"},
		{typesx.Project, "Release v2.1 — mobile", "project_release_v2_1_mobile.md"},
		{typesx.Reference, "one two three four five six seven eight nine ten eleven twelve", "reference_one_two_three_four_five_six_seven_eight_nine_ten_eleven.md"},
		{typesx.Reference, "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo", "reference_alpha_bravo_charlie_delta_echo_foxtrot_golf_hotel_india.md"},
		{typesx.Reference, strings.Repeat("a", 80), "reference_" + strings.Repeat("a", 60) + ".md"},
		{typesx.User, "日本語", "user_topic_"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FileName(tc.typ, tc.name)
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("FileName(%q) = %q, want %q", tc.name, got, tc.want)
			}
			if len(got) > len(tc.typ)+1+maxSlugLen+3 {
				t.Errorf("FileName(%q) = %q is too long", tc.name, got)
			}
		})
	}
}

func TestSimilar(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Testing policy Integration tests hit a real database", "Policy on testing: integration tests hit a real database", true},
		{"Testing policy", "Testing policy", true},
		{"Testing policy", "Deploy checklist", false},
		{"Release freeze next week", "Release notes format", false},
		{"", "", false},
		{"Worker 1 fact 1 Process 1 wrote fact number 1", "Worker 1 fact 2 Process 1 wrote fact number 2", false},
		{"API v1 rate limits are 100 per minute", "API v2 rate limits are 100 per minute", false},
		{"Deploy needs VPN 2", "deploy needs the VPN 2", true},
		{"Pull request size Keep PRs small", "PR size keep pull requests small", true},
		{"Public API limits", "Internal API limits", false},
	} {
		if _, got := Similar(tc.a, tc.b); got != tc.same {
			t.Errorf("Jaccard(%q, %q) = %.2f, want similar=%v", tc.a, tc.b, Jaccard(tc.a, tc.b), tc.same)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Integration tests hit a real database. Mocks hid a migration.", "Integration tests hit a real database."},
		{"# Heading\n\nFirst **bold** line\ncontinues here", "First bold line continues here"},
		{"v1.2 ships now. Next.", "v1.2 ships now."},
		{strings.Repeat("word ", 60), strings.TrimSpace(strings.Repeat("word ", 29)) + "…"},
	} {
		if got := Describe(tc.text); got != tc.want {
			t.Errorf("Describe(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// ghToken is a GitHub token assembled at run time, so that no literal
// token sits in the source for other scanners to trip over.
var ghToken = "ghp_" + "tN3Jui71d6up7IQY" + "T5n4hf99eNlVB0RvrXcB"

// TestSlugNeverACredential checks that a name whose words would make a
// token in a file name (ghp.X slugs to ghp_x) gets a hashed file name, and
// that a plain name keeps its words.
func TestSlugNeverACredential(t *testing.T) {
	for _, name := range []string{
		"Creds " + strings.Replace(ghToken, "_", ".", 1),
		"Creds " + strings.Replace(ghToken, "_", " ", 1),
		"Creds " + strings.Replace(ghToken, "_", "%5F", 1),
	} {
		got := Slugify(name)
		if !strings.HasPrefix(got, "topic_") {
			t.Errorf("Slugify(%q) = %q, want a hashed slug", name, got)
		}
		if got != Slugify(name) {
			t.Errorf("Slugify(%q) is not stable", name)
		}
	}
	if got := Slugify("GitHub token rotation"); got != "github_token_rotation" {
		t.Errorf("Slugify(plain) = %q", got)
	}
}

// TestValidateRefusesDisguisedCredential checks each field of a request
// with a token in disguise: refused as an input error naming the field,
// and nothing written by Add.
func TestValidateRefusesDisguisedCredential(t *testing.T) {
	pct := strings.Replace(ghToken, "_", "%5F", 1)
	split := ghToken[:20] + "\n" + ghToken[20:]
	for _, tc := range []struct {
		what  string
		req   AddRequest
		field string
	}{
		{"name", AddRequest{Name: "Creds " + pct, Text: "The CI creds rotate weekly."}, "name"},
		{"description", AddRequest{Name: "Creds", Text: "The CI creds rotate weekly.", Description: "token " + pct}, "description"},
		{"tag", AddRequest{Name: "Creds", Text: "The CI creds rotate weekly.", Tags: []string{"ci", pct}}, "tag"},
		{"why", AddRequest{Name: "Creds", Text: "The CI creds rotate weekly.", Why: split}, "why"},
		{"how", AddRequest{Name: "Creds", Text: "The CI creds rotate weekly.", How: "use " + pct}, "how"},
		{"text", AddRequest{Name: "Creds", Text: "use " + split}, ""},
	} {
		t.Run(tc.what, func(t *testing.T) {
			dir := t.TempDir()
			d := Open(dir, Live)
			tc.req.Type = typesx.Project
			_, err := d.Add(tc.req)
			var se *SecretError
			if !IsInput(err) || !errors.As(err, &se) || se.Field != tc.field || se.Kind != "GitHub token" {
				t.Fatalf("Add = %v (%+v), want a refused GitHub token in the %q field", err, se, tc.field)
			}
			if ents, _ := os.ReadDir(dir); len(ents) > 0 {
				t.Errorf("Add wrote %s", ents[0].Name())
			}
		})
	}
}

// TestAddValidatesChangedRequest checks that Add validates again a request
// changed after Validate accepted it: a front end that validates first
// cannot carry a credential past the scan.
func TestAddValidatesChangedRequest(t *testing.T) {
	d := Open(t.TempDir(), Live)
	req := AddRequest{Type: typesx.Project, Name: "Creds", Text: "The CI creds rotate weekly."}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	if !req.valid() {
		t.Fatal("a request Validate accepted is not valid()")
	}
	changed := req
	changed.Tags = []string{strings.Replace(ghToken, "_", "&#95;", 1)}
	if _, err := d.Add(changed); !IsInput(err) {
		t.Fatalf("Add of a request changed after Validate = %v, want it refused", err)
	}
	if _, err := d.Add(req); err != nil {
		t.Fatalf("Add of the validated request: %v", err)
	}
}

// TestLogEntryScannedAsWritten checks that log mode scans the entry as it
// is appended: a name and a text that hold no credential apart can make
// one on the entry's line ("DB password: ..."), which lint would refuse.
func TestLogEntryScannedAsWritten(t *testing.T) {
	req := AddRequest{Type: typesx.Project, Name: "DB password", Text: "Sup3rS3cret!x"}
	if err := req.Validate(); err != nil {
		t.Fatalf("Validate: %v (the fields alone are no credential)", err)
	}
	dir := t.TempDir()
	if _, err := Open(dir, Log).Add(req); !IsInput(err) || !strings.Contains(err.Error(), "secrets never go into memory") {
		t.Fatalf("log-mode Add = %v, want the entry refused", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("Add wrote %s", ents[0].Name())
	}
}
