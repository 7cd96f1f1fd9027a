package search

import (
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
)

// String renders a parsed query for tests: (a b) words side by side,
// (a AND b), (a OR b), {a|b} a compound's readings, -a, "a b", a*.
func (n *node) String() string {
	switch n.kind {
	case nTerm:
		return n.text
	case nPrefix:
		return n.text + "*"
	case nPhrase:
		var w []string
		for i, t := range n.seq {
			if i > 0 && t.off != n.seq[i-1].off+1 {
				w = append(w, "_")
			}
			w = append(w, t.term)
		}
		return `"` + strings.Join(w, " ") + `"`
	case nNot:
		return "-" + n.kids[0].String()
	}
	var kids []string
	for _, k := range n.kids {
		kids = append(kids, k.String())
	}
	switch {
	case n.alt:
		return "{" + strings.Join(kids, "|") + "}"
	case n.kind == nOr:
		return "(" + strings.Join(kids, " OR ") + ")"
	case n.implicit:
		return "(" + strings.Join(kids, " ") + ")"
	}
	return "(" + strings.Join(kids, " AND ") + ")"
}

func TestParseQuery(t *testing.T) {
	tests := []struct{ in, want, words string }{
		{"deploy", "deploy", "deploy"},
		{"Deploying staging", "(deploy stage)", "deploying staging"},
		{"who owns billing", "(own bill)", "who owns billing"},
		{"the who", "(the who)", "the who"},
		{`"out of memory" crash`, `("out of memori" crash)`, "out of memory crash"},
		{"deploy*", "deploy*", "deploy"},
		{"Configura*", "configura*", "configura"},
		{"api-lat*", "(api AND lat*)", "api lat"},
		{"api-latency", `{"api latenc"|apilatency}`, "api latency"},
		{"MAX_RETRIES", `{"max retri"|maxretries}`, "max retries"},
		{"kafka OR rabbitmq", "(kafka OR rabbitmq)", "kafka rabbitmq"},
		{"deploy NOT staging", "(deploy -stage)", "deploy"},
		{"deploy -staging", "(deploy -stage)", "deploy"},
		{"deploy AND (staging OR prod)", "(deploy AND (stage OR prod))", "deploy staging prod"},
		{"a OR b c", "(a OR (b c))", "a b c"},
		{"Müller", "muller", "muller"},
		{"deploy !!! —", "deploy", "deploy"},
		{"tab\tand\nnewline", "(tab newlin)", "tab and newline"},
		{`"" deploy`, "deploy", "deploy"},
		{`"x-ray"`, `"x ray"`, "x ray"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			q, err := parseQuery(tc.in)
			if err != nil {
				t.Fatalf("parseQuery(%q): %v", tc.in, err)
			}
			if got := q.root.String(); got != tc.want {
				t.Errorf("parseQuery(%q) = %s, want %s", tc.in, got, tc.want)
			}
			if got := strings.Join(q.words, " "); got != tc.words {
				t.Errorf("parseQuery(%q) words = %q, want %q", tc.in, got, tc.words)
			}
		})
	}
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "empty"},
		{"   ", "empty"},
		{"NOT NOT deploy x", "NOT needs words to exclude from"},
		{"NOT deploy", "NOT needs words to exclude from"},
		{"deploy OR NOT staging", "NOT needs words to exclude from"},
		{"()", "nothing to search for"},
		{"NOT", "nothing to search for"},
		{"OR", "nothing to search for"},
		{`"`, "nothing to search for"},
		{"( ) OR -", "nothing to search for"},
		{"*", "nothing to search for"},
		{"***", "nothing to search for"},
		{"!!!", "nothing to search for"},
		{strings.Repeat("a", MaxQueryBytes+1), "at most 1000"},
		{strings.Repeat("w ", 70), "at most 64"},
		{"deploy\x07", "control character"},
		{"deploy\xff", "UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := parseQuery(tc.in)
			if err == nil {
				t.Fatalf("parseQuery(%q): no error, want %q", tc.in, tc.want)
			}
			if !memdir.IsInput(err) {
				t.Errorf("parseQuery(%q): %T is not an input error", tc.in, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("parseQuery(%q) = %q, want one line with %q", tc.in, msg, tc.want)
			}
		})
	}
}

// TestParseQueryLenient checks that a question as an agent or a person
// types it, with a stray quote or operator, is read as its words: the
// operator that cannot apply is punctuation.
func TestParseQueryLenient(t *testing.T) {
	tests := []struct{ in, want, words string }{
		{`When did she first watch "Eternal Sunshine?`, "(first watch etern sunshin)", "when did she first watch eternal sunshine"},
		{`"deploy`, "deploy", "deploy"},
		{`deploy"`, "deploy", "deploy"},
		{`deploy "canary stage" "b`, `(deploy "canari stage" b)`, "deploy canary stage b"},
		{`what's "the plan`, "plan", "what's the plan"},
		{"(deploy", "deploy", "deploy"},
		{"deploy)", "deploy", "deploy"},
		{"deploy) OR (kafka", "(deploy OR kafka)", "deploy kafka"},
		{"(deploy OR (kafka", "(deploy OR kafka)", "deploy kafka"},
		{"deploy () staging", "(deploy stage)", "deploy staging"},
		{"deploy -", "deploy", "deploy"},
		{"deploy - staging", "(deploy stage)", "deploy staging"},
		{"deploy NOT", "deploy", "deploy"},
		{"deploy OR", "deploy", "deploy"},
		{"OR deploy", "deploy", "deploy"},
		{"deploy OR OR kafka", "(deploy OR kafka)", "deploy kafka"},
		{"deploy AND", "deploy", "deploy"},
		{"AND deploy", "deploy", "deploy"},
		{"deploy AND AND staging", "(deploy AND stage)", "deploy staging"},
		{"cost * 2", "(cost 2)", "cost 2"},
		{"deploy (NOT)", "deploy", "deploy"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			q, err := parseQuery(tc.in)
			if err != nil {
				t.Fatalf("parseQuery(%q): %v", tc.in, err)
			}
			if got := q.root.String(); got != tc.want {
				t.Errorf("parseQuery(%q) = %s, want %s", tc.in, got, tc.want)
			}
			if got := strings.Join(q.words, " "); got != tc.words {
				t.Errorf("parseQuery(%q) words = %q, want %q", tc.in, got, tc.words)
			}
		})
	}
}
