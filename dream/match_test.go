package dream

import (
	"testing"

	"github.com/memdir/memdir/memdir"
)

func TestRestates(t *testing.T) {
	for _, tc := range []struct {
		subject, a, b string
		want          bool
	}{
		// The false merge of issue 18: a shared subject and a shared date
		// (three terms) made four of five terms in common.
		{"Release", "Release notes are due 2026-11-19.", "The release went out 2026-11-19.", false},
		{"Sprint 42", "The sprint 42 demo is on 2026-11-27.", "The sprint 42 retrospective is on 2026-11-27.", false},
		// Same date, the larger fact adds an event of its own.
		{"Quarterly review", "The quarterly business review with Acme is on 2026-12-04 at 15:00.",
			"The slides for the quarterly business review with Acme are due 2026-12-04 at 15:00.", false},
		{"Security audit", "The security audit starts on 2026-12-15.", "The security audit report is due 2026-12-15.", false},
		// Restatements with the same subject and date.
		{"Release", "The release went out 2026-11-21.", "The release went out on 2026-11-21.", true},
		{"Security audit", "The security audit report is due 2026-12-15.", "The report of the security audit is due on 2026-12-15.", true},
		{"Support rotation", "Support rotation switches every Wednesday at 10:00.", "Support rotation switches at 10:00 every Wednesday.", true},
		// Without numbers, a short restatement inside a longer fact matches.
		{"Staging VPN", "Staging deploys need the VPN turned on.", "Deploying to staging requires the VPN to be turned on.", true},
		{"Staging VPN", "Staging deploys need the VPN.", "Staging deploys need the VPN turned on, and a hardware key.", true},
		// Numbers that differ, and negations, are conflicts as before.
		{"Release freeze", "The merge freeze starts on 2026-12-03.", "The merge freeze starts on 2026-12-10.", false},
		{"Force push", "Force-push to feature branches.", "Never force-push to feature branches.", false},
		// No predicate of its own: nothing the other does not say, unless
		// both hold numbers.
		{"Staging deploy window", "Staging deploy window", "The staging deploy window is set by the release manager.", true},
		{"Release", "Release 2026-11-19", "Release notes are due 2026-11-19.", false},
	} {
		a, b, subj := memdir.TermsOf(tc.a), memdir.TermsOf(tc.b), memdir.TermsOf(tc.subject)
		if got := restates(a, b, subj); got != tc.want {
			t.Errorf("restates(%q, %q, subject %q) = %v, want %v", tc.a, tc.b, tc.subject, got, tc.want)
		}
		if got := restates(b, a, subj); got != tc.want {
			t.Errorf("restates(%q, %q, subject %q) = %v, want %v (swapped)", tc.b, tc.a, tc.subject, got, tc.want)
		}
	}
}
