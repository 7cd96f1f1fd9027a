package memdir

import "testing"

func TestMatcherAgreesWithSimilar(t *testing.T) {
	tests := []struct {
		name, probe, title, hook string
		want                     bool
	}{
		{"same words", "Testing policy real database", "Testing policy", "real database", true},
		{"case and punctuation", "testing policy: real database", "TESTING Policy", "Real-database", true},
		{"few shared words", "Testing policy real database", "Deploy runbook", "staging VPN", false},
		{"numbers differ", "API v1 limits", "API v2", "limits", false},
		{"repeated word is one word", "alpha beta gamma delta", "alpha alpha alpha", "alpha", false},
		{"unicode goes to Similar", "Über café notes", "über Café", "notes", true},
		{"empty probe", "", "anything", "", false},
		{"empty entry", "a b c", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatcher(tc.probe)
			_, got := m.similar(tc.title, tc.hook)
			_, want := Similar(tc.probe, tc.title+" "+tc.hook)
			if got != want || got != tc.want {
				t.Errorf("similar = %v, Similar = %v, want %v", got, want, tc.want)
			}
		})
	}
}

// FuzzMatcher checks that the matcher's quick rejection never turns away
// a pair that Similar accepts, and that its score is Similar's.
func FuzzMatcher(f *testing.F) {
	f.Add("Testing policy real database", "Testing policy", "real database")
	f.Add("API v1 limits", "API v1", "limits")
	f.Add("Über café", "über", "CAFÉ")
	f.Add("a", "A", "")
	f.Fuzz(func(t *testing.T, probe, title, hook string) {
		m := newMatcher(probe)
		got, gotOK := m.similar(title, hook)
		want, wantOK := Similar(probe, title+" "+hook)
		if gotOK != wantOK || (gotOK && got != want) {
			t.Fatalf("matcher = %v %v, Similar = %v %v", got, gotOK, want, wantOK)
		}
	})
}
