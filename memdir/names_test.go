package memdir

import (
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
