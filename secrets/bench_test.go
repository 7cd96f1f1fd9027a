package secrets

import (
	"os"
	"strings"
	"testing"
)

// prose is ordinary memory text full of near misses: credential words,
// URLs, prefixes and ASCII that the anchors will find.
const prose = `# Project notes

The password policy requires 12 characters and a rotation every 90 days.
Set the token via env; never paste a secret into a ticket. The API key for
staging lives in the vault, see https://wiki.internal/security/keys for the
runbook. Bearer tokens are used for service-to-service authentication, and
the Authorization header is added by the gateway. We use sk-learn for the
ranking model, and the task-based scheduler is risk-free to restart.
Deploys to Asia go through the ASIA-PACIFIC pipeline. max_tokens: 4096.
Database: postgres://localhost:5432/app (credentials from the secret store).
- [Testing policy](feedback_testing_policy.md) — Integration tests hit a real database
- 10:04 [feedback] Testing policy: Integration tests must run against a real database.
  Why: a mocked suite passed while the production migration failed.
`

func BenchmarkScan40KB(b *testing.B) {
	text := strings.Repeat(prose, 40*1024/len(prose)+1)[:40*1024]
	if got := Scan(text); len(got) != 0 {
		b.Fatalf("prose gave findings: %+v", got[0])
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Scan(text)
	}
}

// BenchmarkBuildDetectors is what the first Scan of a process pays before
// it looks at the text: the rows of the hand-made table and of the kept
// rules, and the anchor automaton. No regexp is compiled yet.
func BenchmarkBuildDetectors(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		buildDetectors()
	}
}

// BenchmarkFirstScan is a process's first Scan of a memory-sized text:
// building the detectors, compiling the rows whose anchors the text holds
// and pass their gates, and scanning.
func BenchmarkFirstScan(b *testing.B) {
	text := prose + "\nDeploy with the vault token from 1Password; the datadog and sentry keys rotate weekly.\n" +
		"db password: correcthorse, token=ghp_" + rnd(36, 1) + "\n"
	b.ReportAllocs()
	for b.Loop() {
		table, _ := buildDetectors()
		for _, r := range windows(text) {
			p := &table[r.prio]
			p.regexp()
			if p.anchored != nil {
				p.anchored.get()
			}
		}
		Scan(text)
	}
}

// BenchmarkCompileEveryRow is the worst case: compiling the regexps of
// every row, as a text holding every anchor would.
func BenchmarkCompileEveryRow(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		table, _ := buildDetectors()
		for i := range table {
			table[i].regexp()
			if table[i].anchored != nil {
				table[i].anchored.get()
			}
		}
	}
}

// BenchmarkFirstScanAdd is the first Scan of the text scripts/bench adds:
// what one `memdir add` process pays for the scanner.
func BenchmarkFirstScanAdd(b *testing.B) {
	text := "Bench text for a whole-process add: the deploy needs the staging VPN and a fresh token from the vault. Rotate it weekly."
	b.ReportAllocs()
	for b.Loop() {
		table, _ := buildDetectors()
		for _, r := range windows(text) {
			table[r.prio].regexp()
		}
		Scan(text)
	}
}

// BenchmarkScanNotes40KB scans 40 KB of the innocuous notes (prose, code
// notes, %-escapes, entities, non-ASCII, hex and base64): the text that
// makes the decoder and the join view work hardest without a finding.
func BenchmarkScanNotes40KB(b *testing.B) {
	data, err := os.ReadFile("testdata/innocuous.txt")
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(string(data), 40*1024/len(data)+1)[:40*1024]
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Scan(text)
	}
}
