package dream

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memdir/memdir/memdir"
)

// FuzzDeriveName checks a derived name against an oracle that knows no
// grammar: never empty, at most six words, and made of whole words of
// the note's first line (never a word cut in two).
func FuzzDeriveName(f *testing.F) {
	for _, s := range []string{
		"remember that staging deploys always need the corporate VPN turned on first",
		"the deploy script lives in scripts/deploy.sh and needs bash 5",
		"always run make lint before pushing to main",
		"I'm on the platform team and mostly write Go",
		"https://example.com/a-very-long-path is the wiki",
		"remember that", "-", ", , ,", "the the the the the the the the", "Ünïcödé wörds everywhere here",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, note string) {
		if !utf8.ValidString(note) {
			return
		}
		got := deriveName(note)
		if got == "" {
			t.Fatalf("deriveName(%q) is empty", note)
		}
		words := strings.Fields(got)
		if len(words) > 6 {
			t.Fatalf("deriveName(%q) = %q: %d words", note, got, len(words))
		}
		if got == "Note" {
			return
		}
		fields := strings.Fields(strings.ReplaceAll(firstLine(strings.TrimSpace(note)), "—", " "))
		for _, w := range words {
			if !hasField(fields, w) {
				t.Fatalf("deriveName(%q) = %q: %q is no whole word of the note", note, got, w)
			}
		}
	})
}

// hasField reports whether w is one of fields, as a name shows a word:
// its first letter maybe capitalised, punctuation that ends a clause or
// edges a word maybe dropped.
func hasField(fields []string, w string) bool {
	trim := func(s string) string { return strings.Trim(strings.TrimRight(s, ".;!?,:"), " ,-") }
	w = trim(w)
	for _, f := range fields {
		f = trim(f)
		if strings.EqualFold(f, w) {
			return true
		}
		_, n := utf8.DecodeRuneInString(w)
		_, m := utf8.DecodeRuneInString(f)
		if n > 0 && m > 0 && f[m:] == w[n:] {
			return true
		}
	}
	return false
}

// FuzzSupersedes checks that the supersede rules, the date rule among
// them, answer an index of the paragraphs or -1, and never a paragraph
// that says what the fact says.
func FuzzSupersedes(f *testing.F) {
	f.Add("Merge freeze starts Thursday 2026-11-26", "Freeze ends 2026-12-20.", "Freeze moved to 2026-12-10.")
	f.Add("The launch is on 2026-12-01.", "Intro.", "The launch is postponed until next Friday.")
	f.Add("Retro happens every Tuesday.", "", "Retro is now on Thursday.")
	f.Add("CI runs on Jenkins.", "Deploy day: Tuesday", "CI runs on GitHub Actions instead of Jenkins.")
	f.Fuzz(func(t *testing.T, a, b, fact string) {
		paras := []string{a, b}
		facts := []memdir.Terms{memdir.TermsOf(a), memdir.TermsOf(b)}
		got := supersedes(fact, facts, paras, "", "Topic")
		if got < -1 || got >= len(paras) {
			t.Fatalf("supersedes(%q) = %d, out of range", fact, got)
		}
		if got >= 0 && squash(paras[got]) == squash(fact) {
			t.Fatalf("supersedes(%q) replaces the same text %q", fact, paras[got])
		}
	})
}
