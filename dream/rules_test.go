package dream

import (
	"testing"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		title, text string
		want        typesx.Type
	}{
		{"", "I'm a senior Go engineer, new to React.", typesx.User},
		{"", "I prefer small pull requests.", typesx.User},
		{"Role", "my role is platform lead", typesx.User},
		{"", "Never mock the database in integration tests.", typesx.Feedback},
		{"", "don't push to main directly", typesx.Feedback},
		{"Reviews", "PRs should have one reviewer from the API team.", typesx.Feedback},
		{"", "The on-call dashboard is at https://grafana.example.com/d/x", typesx.Reference},
		{"", "Bugs are tracked in the Jira board MOBILE.", typesx.Reference},
		{"", "ask #ops for VPN access", typesx.Reference},
		{"", "remember that staging deploys need the VPN", typesx.Project},
		{"", "Merge freeze begins 2026-11-26.", typesx.Project},
		{"Use of the cache", "The cache was dropped in v2.", typesx.Project}, // an imperative in the title does not count
	}
	for _, tc := range tests {
		if got, _ := classify(tc.title, tc.text); got != tc.want {
			t.Errorf("classify(%q, %q) = %s, want %s", tc.title, tc.text, got, tc.want)
		}
	}
}

func TestDeriveName(t *testing.T) {
	tests := []struct{ text, want string }{
		{"remember that staging deploys need the VPN", "Staging deploys"},
		{"remember that staging deploys always need the corporate VPN turned on first", "Staging deploys"},
		{"I'm a senior Go engineer, new to the React side.", "I'm a senior Go engineer"},
		{"The on-call dashboard is at https://grafana.example.com/d/x", "On-call dashboard"},
		{"fyi: the build takes forty minutes on a cold cache and more", "Build takes forty minutes"},
		{"remember that the iOS build requires Xcode 16.2", "iOS build"},
		{"the design review for the search rewrite of the parser is on Friday", "Design review"},
		{"always run make lint before pushing to main", "Run make lint before pushing"},
		{"never commit the .env file, it holds the keys", "Never commit the .env file"},
		{"Deploys need the VPN.", "Deploys need the VPN"},
		{"https://example.com/a-very-long-path is the wiki", "Https://example.com/a-very-long-path is the wiki"},
		{"remember that", "Note"},
		{"   ", "Note"},
		{"v1.2 ships today. More later", "V1.2 ships today"},
	}
	for _, tc := range tests {
		if got := deriveName(tc.text); got != tc.want {
			t.Errorf("deriveName(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestCleanName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a/b", "a-b"},
		{"../etc", ".-etc"},
		{"tab\there", "tab here"},
		{"", "Note"},
	}
	for _, tc := range tests {
		if got := cleanName(tc.in); got != tc.want {
			t.Errorf("cleanName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSupersedes(t *testing.T) {
	tests := []struct {
		name      string
		paras     []string
		fact      string
		titleKey  string
		topicName string
		want      int
	}{
		{"instead of", []string{"Deploys need the VPN.", "CI runs on Jenkins."}, "CI runs on GitHub Actions instead of Jenkins.", "", "CI", 1},
		{"no longer", []string{"We deploy on Fridays after lunch."}, "We no longer deploy on Fridays.", "", "Deploys", 0},
		{"replaces", []string{"Metrics go to Graphite.", "Logs go to Loki."}, "Prometheus replaces Graphite for metrics.", "", "Metrics", 0},
		{"is replaced by", []string{"Auth uses the session cookie."}, "The session cookie is replaced by JWT auth.", "", "Auth", 0},
		{"same key colon", []string{"Deploy day: Tuesday"}, "Deploy day: Thursday", "", "Deploys", 0},
		{"key is now", []string{"Intro.", "The deploy day is Tuesday."}, "Deploy day is now Thursday", "", "Deploys", 1},
		{"changed to", []string{"Staging host = old.example.com"}, "Staging host changed to new.example.com", "", "Hosts", 0},
		{"title now", []string{"https://old.example.com"}, "now https://new.example.com", "Staging URL", "Staging URL", 0},
		{"title now, many facts", []string{"a fact", "another fact"}, "now https://new.example.com", "Staging URL", "Staging URL", -1},
		{"unrelated", []string{"CI runs on Jenkins."}, "Deploys need the VPN.", "", "CI", -1},
		{"marker without match", []string{"CI runs on Jenkins."}, "Use tabs instead of spaces.", "", "Style", -1},
		{"note is not a key", []string{"Note: the VPN is slow"}, "Note: lunch is at noon", "", "Notes", -1},
		{"same text", []string{"Deploy day: Tuesday"}, "Deploy day: Tuesday", "", "Deploys", -1},
		// A subject moved to a day replaces the dated paragraph about it.
		{"moved to a date", []string{"Merge freeze starts Thursday 2026-11-26"}, "Freeze moved to 2026-12-10.", "", "Release freeze", 0},
		{"postponed until a relative day", []string{"Intro to the launch plan.", "The launch is on 2026-12-01."}, "The launch is postponed until next Friday.", "", "Launch", 1},
		{"is now on a weekday", []string{"Retro happens every Tuesday at 15:00."}, "Retro is now on Thursday.", "", "Retro", 0},
		{"now starts", []string{"Owners: the release team.", "Merge freeze starts 2026-11-26."}, "The merge freeze now starts 2026-12-10.", "", "Release freeze", 1},
		{"has been pushed back to a month day", []string{"The beta opens December 1."}, "The beta has been pushed back to December 15.", "", "Beta", 0},
		// Near misses: moved, but not to a day, or not about a dated paragraph.
		{"moved to a place", []string{"The release runs on Jenkins since 2026-11-01."}, "The release moved to the new CI runner.", "", "Release", -1},
		{"moved, another subject", []string{"Release 3.2 ships on 2026-12-01."}, "Freeze moved to 2026-12-10.", "", "Release", -1},
		{"moved, undated paragraph", []string{"The freeze checklist is in docs/freeze.md."}, "Freeze moved to 2026-12-10.", "", "Release freeze", -1},
		{"moved, narrower subject", []string{"Merge freeze starts 2026-11-26."}, "Feature freeze moved to 2026-12-01.", "", "Freezes", -1},
		{"moved, two dated paragraphs", []string{"Merge freeze starts on Monday.", "Freeze ends on Friday."}, "Freeze moved to 2026-12-10.", "", "Release freeze", -1},
		{"moved, two paragraphs of one year", []string{"Merge freeze starts 2026-11-26.", "Freeze ends 2026-12-20."}, "Freeze moved to 2026-12-10.", "", "Release freeze", -1},
		{"moved, the paragraph sharing most words", []string{"Code freeze starts 2026-11-20.", "Merge freeze starts 2026-11-26."}, "Merge freeze moved to 2026-12-10.", "", "Freezes", 1},
		{"we moved to a tool", []string{"The migration started 2026-11-02."}, "We moved to Postgres on Monday.", "", "Migration", -1},
		{"a year is not a day", []string{"Merge freeze policy since 2024."}, "Freeze moved to 2026-12-10.", "", "Release freeze", -1},
		{"may is not a month", []string{"The freeze may slip."}, "Freeze moved to 2026-12-10.", "", "Release freeze", -1},
		{"moved to a date, same text", []string{"Freeze moved to 2026-12-10."}, "Freeze moved to 2026-12-10.", "", "Release freeze", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var facts []memdir.Terms
			for _, p := range tc.paras {
				facts = append(facts, memdir.TermsOf(p))
			}
			if got := supersedes(tc.fact, facts, tc.paras, tc.titleKey, tc.topicName); got != tc.want {
				t.Errorf("supersedes(%q) = %d, want %d", tc.fact, got, tc.want)
			}
		})
	}
}

func TestNearDuplicate(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Integration tests must hit a real database, never mocks.", "Never mock the database in integration tests; they must hit a real one.", true},
		{"The API allows 100 requests a minute.", "The API allows 200 requests a minute.", false},
		{"Use tabs.", "Use spaces.", false},
		{"Staging deploys need the VPN.", "Production deploys are done by the release bot on Tuesdays.", false},
	}
	for _, tc := range tests {
		if got := memdir.Compare(memdir.TermsOf(tc.a), memdir.TermsOf(tc.b)).SameFact(); got != tc.want {
			t.Errorf("SameFact(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestParagraphs(t *testing.T) {
	body := "one\nline two\n\n\n```\ncode\n\nmore code\n```\n\nlast  \n"
	got := paragraphs(body)
	want := []string{"one\nline two", "```\ncode\n\nmore code\n```", "last"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("paragraph %d = %q, want %q", i, got[i], want[i])
		}
	}
}
