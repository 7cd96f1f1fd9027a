package memdir

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kljensen/snowball/english"
	"github.com/memdir/memdir/tokenize"
)

func TestTermsOf(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Mocks, mocked and mocking", "mock mock mock"},
		{"Keep PRs small", "keep pull request small"},
		{"Don't mock the DB; never!", "not mock databas not"},
		{"Use tabs instead of spaces", "use tab not space"},
		{"The team's API v2 is at 100 rps", "team api v2 100 rps"},
		{"it'll be fine, I'm sure", "fine sure"},
		{"Über café", "uber cafe"},                            // folded as search folds them
		{"Müller's api-latency fix", "muller api latenc fix"}, // cut as search cuts them
	} {
		if got := strings.Join(TermList(tc.text), " "); got != tc.want {
			t.Errorf("TermList(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b         string
		memory, fact bool
		conflict     bool
		shared       int
	}{
		{"Integration tests hit a real database, never mocks.", "Never mock the database in integration tests; they must hit a real one.", true, true, false, 7},
		{"Keep pull requests small.", "keep PRs small: at most 400 changed lines", true, true, false, 4},
		{"The API allows 100 requests a minute.", "The API allows 200 requests a minute.", false, false, true, 4},
		{"Always mock the network in unit tests.", "Never mock the network in unit tests.", false, false, true, 4},
		{"The OpenAPI spec for the public API is in api/openapi.yaml.", "The OpenAPI spec for the internal API is in internal/api/openapi.yaml.", false, false, true, 6},
		{"Runbooks live in docs/runbooks in the ops repository.", "Postmortems live in docs/postmortems in the ops repository.", true, false, false, 4},
		{"Use tabs.", "Use spaces.", false, false, false, 1},
	} {
		s := Compare(TermsOf(tc.a), TermsOf(tc.b))
		if s.SameMemory() != tc.memory || s.SameFact() != tc.fact || s.Conflict != tc.conflict || s.Shared != tc.shared {
			t.Errorf("Compare(%q, %q) = %+v: memory %v, fact %v; want memory %v, fact %v, conflict %v, shared %d",
				tc.a, tc.b, s, s.SameMemory(), s.SameFact(), tc.memory, tc.fact, tc.conflict, tc.shared)
		}
		if r := Compare(TermsOf(tc.b), TermsOf(tc.a)); r != s {
			t.Errorf("Compare is not symmetric: %+v, %+v", s, r)
		}
	}
}

// TestStemKeepsFirstLetters checks the matcher's premise on every word of
// the repository's Go and markdown files: the Snowball stem of a plain
// word starts with the word's first two letters, but for the words
// the matcher looks up whole (negations, abbreviations, exceptions).
func TestStemKeepsFirstLetters(t *testing.T) {
	seen := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".txt") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, w := range splitWords(string(data)) {
			seen[w] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range append([]string{"dying", "lying", "tying", "skies", "happy", "ugly", "early", "only", "news", "generously", "communism", "arsenal"}, keys(seen)...) {
		if len(w) <= 2 || !plainLetters(w) || tokenize.IsNegation(w) || abbreviations()[w] != nil || slices.Contains(snowballExceptions, w) {
			continue
		}
		if s := english.Stem(w, false); pairOf(s) != pairOf(w) {
			t.Errorf("stem(%q) = %q: its first letters differ and the matcher does not look it up whole", w, s)
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

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
// a pair that Similar accepts, and that its score is Similar's, with and
// without a Cache of the entries' terms.
func FuzzMatcher(f *testing.F) {
	f.Add("Testing policy real database", "Testing policy", "real database")
	f.Add("API v1 limits", "API v1", "limits")
	f.Add("Über café", "über", "CAFÉ")
	f.Add("a", "A", "")
	f.Add("Keep PRs small", "Pull request size", "keep pull requests small")
	f.Add("dying tests never", "Tests die", "don't never")
	f.Add("skies it's the team's", "sky", "teams it'll")
	cache := NewCache()
	f.Fuzz(func(t *testing.T, probe, title, hook string) {
		want, wantOK := Similar(probe, title+" "+hook)
		for _, c := range []*Cache{nil, cache, cache} { // the second time from the cache
			m := newMatcher(probe)
			m.cache = c
			got, gotOK := m.similar(title, hook)
			if gotOK != wantOK || (gotOK && got != want) {
				t.Fatalf("matcher (cache %v) = %v %v, Similar = %v %v", c != nil, got, gotOK, want, wantOK)
			}
		}
	})
}
