package secrets

import (
	"regexp"
	"testing"
)

// TestKeptRules counts the gitleaks rules that load: every rule of the
// data file that is not skipped on purpose compiles under Go's RE2, and so
// does every allowlist regexp. A refreshed rule set changes these numbers
// and this test says by how much.
func TestKeptRules(t *testing.T) {
	const (
		wantData      = 217 // rules in gitleaks_rules.go
		wantPathBound = 5   // left out by the generator
		wantLoaded    = 211 // rows added to the table
	)
	if len(gitleaksRules) != wantData || gitleaksPathRules != wantPathBound {
		t.Errorf("data has %d rules (%d path-bound left out), want %d (%d)",
			len(gitleaksRules), gitleaksPathRules, wantData, wantPathBound)
	}
	ids := map[string]bool{}
	unsupported := 0
	for _, r := range gitleaksRules {
		ids[r.id] = true
		if extSkip(r.id) {
			continue
		}
		if _, err := regexp.Compile(r.regex); err != nil {
			unsupported++
			t.Errorf("rule %s: %v", r.id, err)
		}
		for _, a := range append([]extAllow{gitleaksAllow}, r.allow...) {
			for _, re := range a.regexes {
				if _, err := regexp.Compile(re); err != nil {
					t.Errorf("rule %s: allowlist: %v", r.id, err)
				}
			}
		}
	}
	for _, s := range extSkipped {
		if !ids[s.id] {
			t.Errorf("skipped rule %s is not in the data", s.id)
		}
	}
	if got := len(extPatterns()); got != wantLoaded {
		t.Errorf("%d kept rules load, want %d (%d in the data, %d skipped, %d not RE2)",
			got, wantLoaded, len(gitleaksRules), len(extSkipped), unsupported)
	}
}

// TestEveryRowCompiles compiles what Scan compiles lazily: a row that
// does not compile would otherwise panic on its first anchor hit.
func TestEveryRowCompiles(t *testing.T) {
	table, _ := buildDetectors()
	for _, p := range table {
		if _, err := regexp.Compile(p.re.src); err != nil {
			t.Errorf("%s: %v", p.kind, err)
		}
		if p.anchored != nil {
			if _, err := regexp.Compile(p.anchored.src); err != nil {
				t.Errorf("%s, anchored: %v", p.kind, err)
			}
		}
	}
}

// TestKeptRulesFind checks a few formats only the kept rules know, and
// that their allowlists and entropy limits hold.
func TestKeptRulesFind(t *testing.T) {
	tests := []struct{ text, want string }{
		{"hf_" + gen(lettersOnly, 34, 80), "huggingface access token"},
		{"pypi-AgEIcHlwaS5vcmc" + gen(urlSafe, 60, 81), "pypi upload token"},
		{"dop_v1_" + hexs(64, 82), "digitalocean pat"},
		{"shpat_" + hexs(32, 83), "shopify access token"},
		{"AGE-SECRET-KEY-1" + gen("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, 84), "age secret key"},
		{"curl -u admin:" + rnd(14, 85) + " https://api.internal/", "curl auth user"},
		// An allowlisted value, low entropy, an example marker.
		{"curl -u admin:changeme https://api.internal/", ""},
		{"dop_v1_" + "0000000000000000000000000000000000000000000000000000000000000000", ""},
		{"hf_" + "ThisIsAnExampleTokenForTheDocsOkay", ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			got := Scan(tc.text)
			if tc.want == "" {
				if len(got) != 0 {
					t.Errorf("Scan = %+v, want nothing", got)
				}
				return
			}
			if len(got) != 1 || got[0].Kind != tc.want {
				t.Errorf("Scan = %+v, want one %q", got, tc.want)
			}
		})
	}
}

// TestScanConcurrent scans from several goroutines at once, as the store's
// reconciliation does: the rows' regexps compile on first use, once, under
// -race.
func TestScanConcurrent(t *testing.T) {
	var cases []string
	for _, c := range credentials() {
		cases = append(cases, c.text)
	}
	done := make(chan int)
	for g := range 8 {
		go func() {
			n := 0
			for i := range cases {
				n += len(Scan(cases[(i+g)%len(cases)]))
			}
			done <- n
		}()
	}
	for range 8 {
		if n := <-done; n < len(cases) {
			t.Errorf("a goroutine found %d credentials in %d texts", n, len(cases))
		}
	}
}
