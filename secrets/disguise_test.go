package secrets

import (
	"bufio"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
)

// disguisedToken is a credential of a kind in its plain form.
type disguisedToken struct{ kind, token string }

// disguisedTokens are the credentials the disguises below are applied to.
func disguisedTokens() []disguisedToken {
	return []disguisedToken{
		{"GitHub token", "ghp_" + rnd(36, 7)},
		{"GitHub token", "github_pat_" + rnd(22, 10) + "_" + rnd(59, 11)},
		{"AWS access key ID", "AKIA" + gen("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 2)},
		{"Slack token", "xoxb-123456789012-1234567890123-" + rnd(24, 14)},
		{"OpenAI API key", "sk-proj-" + rnd(48, 20)},
		{"Anthropic API key", "sk-ant-api03-" + rnd(93, 19) + "AA"},
		{"Stripe key", "sk_live_" + rnd(24, 23)},
		{"GitLab token", "glpat-" + rnd(20, 12)},
		{"Google API key", "AIza" + rnd(35, 6)},
	}
}

// disguise is one way to write a token so that it reads the same to a
// person or a program but not byte for byte; ok is false when it does
// not apply to the token.
type disguise struct {
	name string
	f    func(tok string) (string, bool)
}

// at rewrites the byte at i of tok with f.
func at(i int, f func(c byte) string) func(string) (string, bool) {
	return func(tok string) (string, bool) { return tok[:i] + f(tok[i]) + tok[i+1:], true }
}

// each rewrites every byte of tok with f.
func each(f func(c byte) string) func(string) (string, bool) {
	return func(tok string) (string, bool) {
		var b strings.Builder
		for i := 0; i < len(tok); i++ {
			b.WriteString(f(tok[i]))
		}
		return b.String(), true
	}
}

// split cuts tok in the middle with sep.
func split(sep string) func(string) (string, bool) {
	return func(tok string) (string, bool) { return tok[:len(tok)/2] + sep + tok[len(tok)/2:], true }
}

func pct(c byte) string { return fmt.Sprintf("%%%02X", c) }

func disguises() []disguise {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return []disguise{
		{"split by a newline", split("\n")},
		{"split by a space", split(" ")},
		{"split by a newline and indent", split("\n  ")},
		{"zero-width space", split("\u200b")},
		{"dashed groups of four", func(tok string) (string, bool) {
			// A token with dashes of its own reads ambiguously in groups.
			if strings.Contains(tok, "-") {
				return "", false
			}
			var groups []string
			for i := 0; i < len(tok); i += 4 {
				groups = append(groups, tok[i:min(i+4, len(tok))])
			}
			return strings.Join(groups, "-"), true
		}},
		{"hex", func(tok string) (string, bool) { return hex.EncodeToString([]byte(tok)), true }},
		{"\\x escapes", each(func(c byte) string { return fmt.Sprintf(`\x%02x`, c) })},
		{"one %-escape", at(3, pct)},
		{"%-encoded", each(pct)},
		{"%-encoded twice", at(3, func(c byte) string { return "%25" + fmt.Sprintf("%02X", c) })},
		{"one \\u escape", at(3, func(c byte) string { return fmt.Sprintf(`\u%04x`, c) })},
		{"\\u escapes", each(func(c byte) string { return fmt.Sprintf(`\u%04X`, c) })},
		{"fullwidth", each(func(c byte) string { return string(rune(c) + 0xFEE0) })},
		{"decimal HTML entity", at(3, func(c byte) string { return fmt.Sprintf("&#%d;", c) })},
		{"hex HTML entity", at(3, func(c byte) string { return fmt.Sprintf("&#x%x;", c) })},
		{"named HTML entity", func(tok string) (string, bool) {
			return strings.ReplaceAll(tok, "_", "&lowbar;"), strings.Contains(tok, "_")
		}},
		{"double base64", func(tok string) (string, bool) { return b64(b64(tok)), true }},
		{"double base64 as a tag", func(tok string) (string, bool) {
			// As add scans a request: name, description, tags, body.
			return "Deploy\nthe deploy notes\n" + b64(b64(tok)) + "\nDeploys go through the bastion.", true
		}},
		{"split and %-escaped", func(tok string) (string, bool) {
			s, _ := at(3, pct)(tok)
			return split("\n")(s)
		}},
	}
}

// innocuousNotes returns ordinary memory text: the hand-written notes of
// testdata/innocuous.txt (prose, Go and JS notes, escapes, entities and
// numbers as people write them) and, generated, commit hashes, UUIDs,
// URLs with %-escapes, and base64 and hex of the notes.
func innocuousNotes(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/innocuous.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var notes []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			notes = append(notes, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		switch line := sc.Text(); {
		case strings.HasPrefix(line, "# "):
		case strings.TrimSpace(line) == "":
			flush()
		default:
			cur = append(cur, line)
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	hand := len(notes)
	for i := range 40 {
		sum := sha1.Sum([]byte{byte(i)})
		h := hex.EncodeToString(sum[:])
		notes = append(notes,
			"Fixed in commit "+h+", reverted in "+h[:12]+".",
			fmt.Sprintf("Tenant %s-%s-%s-%s-%s owns the bucket.", h[:8], h[8:12], h[12:16], h[16:20], h[20:32]),
			"Open https://wiki.example.org/search?q="+url.QueryEscape(notes[i%hand][:40])+"&page="+fmt.Sprint(i),
		)
	}
	for _, n := range notes[:hand] {
		notes = append(notes,
			"encoded: "+base64.StdEncoding.EncodeToString([]byte(n)),
			"hex: "+hex.EncodeToString([]byte(n[:min(len(n), 60)])),
		)
	}
	return notes
}

// disguiseFigures are what TestDisguisedShapes measures.
type disguiseFigures struct {
	shapes, caught  int
	notes, flagged  int
	missed, falsePo []string
}

func measureDisguises(t *testing.T) disguiseFigures {
	var fig disguiseFigures
	for _, tok := range disguisedTokens() {
		if got := Scan(tok.token); len(got) == 0 || got[0].Kind != tok.kind {
			t.Fatalf("the plain %s is not found as one: %+v", tok.kind, got)
		}
		for _, d := range disguises() {
			s, ok := d.f(tok.token)
			if !ok {
				continue
			}
			fig.shapes++
			if len(Scan("note: "+s+" for CI")) > 0 {
				fig.caught++
			} else {
				fig.missed = append(fig.missed, d.name+" "+tok.kind)
			}
		}
	}
	for _, n := range innocuousNotes(t) {
		fig.notes++
		if got := Scan(n); len(got) > 0 {
			fig.flagged++
			fig.falsePo = append(fig.falsePo, fmt.Sprintf("%s in %q", got[0].Kind, n))
		}
	}
	return fig
}

// TestDisguisedShapes is the scanner's evaluation: every credential in
// every disguise is caught, and no innocuous note is flagged. It prints
// the figures (go test -run TestDisguisedShapes -v ./secrets).
func TestDisguisedShapes(t *testing.T) {
	fig := measureDisguises(t)
	t.Logf("disguised shapes caught: %d of %d", fig.caught, fig.shapes)
	t.Logf("innocuous notes flagged: %d of %d", fig.flagged, fig.notes)
	for _, m := range fig.missed {
		t.Errorf("missed: %s", m)
	}
	for _, fp := range fig.falsePo {
		t.Errorf("false positive: %s", fp)
	}
}
