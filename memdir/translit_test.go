package memdir

import "testing"

func TestSlugifyTransliterates(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"Müller contact", "muller_contact"},
		{"Crème brûlée", "creme_brulee"},
		{"Straße", "strasse"},
		{"Øresund bridge", "oresund_bridge"},
		{"Łódź office", "lodz_office"},
		{"Привет мир", "privet_mir"},
		{"Αθήνα", "athina"},
		{"テスト方針", "tesuto"},
		{"がっこう", "gakkou"},
		{"きょうと", "kyouto"},
		{"しゃしん", "shashin"},
		{"コーヒー", "kohi"},
		{"한국어", "hangukeo"},
		{"GitHub token rotation", "github_token_rotation"},
	} {
		if got := Slugify(tc.name); got != tc.want {
			t.Errorf("Slugify(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Slugify("日本語"); len(got) < 6 || got[:6] != "topic_" {
		t.Errorf("Slugify(Han) = %q, want a hashed slug", got)
	}
}

func FuzzTransliterate(f *testing.F) {
	for _, s := range []string{"Müller", "がっこう", "っ", "ゃ", "ー", "한", "Привет", "\u3099", "カ\u3099"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		slug := Slugify(s)
		for _, r := range slug {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
				t.Fatalf("Slugify(%q) = %q holds %q", s, slug, r)
			}
		}
	})
}

func TestSameSubject(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Testing policy", "testing-policy", true},
		{"Testing policy", "testing_policy", true},
		{"Testing policy", "Testing polcy", true},
		{"Testing policy", "Tetsing policy", true},
		{"Testing policy", "Testing policyy", true},
		{"Müller contact", "Muller contact", true},
		{"Role", "Rule", false},
		{"C++ tips", "C tips", false},
		{"Release 1.2 notes", "Release 1.3 notes", false},
		{"Testing policy", "Testing polity x", false},
		{"Deploy runbook", "Deploy handbook", false},
	} {
		if got := SameSubject(tc.a, tc.b); got != tc.want {
			t.Errorf("SameSubject(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := SameSubject(tc.b, tc.a); got != tc.want {
			t.Errorf("SameSubject(%q, %q) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}
