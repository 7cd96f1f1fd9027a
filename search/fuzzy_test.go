package search

import (
	"math/rand/v2"
	"testing"

	"github.com/memdir/memdir/tokenize"
)

func TestOSADistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		k    int
		want int
	}{
		{"pnmp", "pnpm", 1, 1},      // a swap is one edit
		{"grafna", "grafana", 1, 1}, // an insertion
		{"kafak", "kafka", 1, 1},
		{"storybok", "storybook", 2, 1},
		{"deploy", "deploy", 1, 0},
		{"abcd", "dcba", 1, 2}, // past the bound: k+1
		{"abcd", "dcba", 4, 3},
		{"note", "nodes", 2, 2},
		{"", "abc", 3, 3},
		{"vite", "v", 1, 2},
	} {
		var o osa
		if got := o.distance(tc.a, []byte(tc.b), tc.k); got != tc.want {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.k, got, tc.want)
		}
	}
}

// TestOSAAgainstReference checks the bounded distance against a plain
// full-matrix one on random words of a small alphabet.
func TestOSAAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, r.IntN(9))
		for i := range b {
			b[i] = "abcd"[r.IntN(4)]
		}
		return string(b)
	}
	var o osa
	for range 5000 {
		a, b, k := word(), word(), r.IntN(4)
		want := min(refOSA(a, b), k+1)
		if got := o.distance(a, []byte(b), k); got != want {
			t.Fatalf("distance(%q, %q, %d) = %d, want %d", a, b, k, got, want)
		}
	}
}

func refOSA(a, b string) int { return tokenize.EditDistance(a, b) }

// TestTypoAndPrefix: a misspelled word finds its memory; a word the
// index has is read as itself only; Prefix reads the last word as a
// prefix unless a space ends the text.
func TestTypoAndPrefix(t *testing.T) {
	d := newDir(t, map[string]string{
		"project_tooling.md":   topicFile("project", "Tooling", "Builds", "The web app uses pnpm and Vite."),
		"reference_grafana.md": topicFile("reference", "Dashboards", "Boards", "Latency lives in Grafana."),
		"reference_node.md":    topicFile("reference", "Node", "Runtime", "Node 22 runs the API."),
	})
	ix := Open(d)
	for _, tc := range []struct {
		q    Query
		want []string
	}{
		{Query{Text: "pnmp"}, []string{"project_tooling.md"}},
		{Query{Text: "grafna"}, []string{"reference_grafana.md"}},
		{Query{Text: "node"}, []string{"reference_node.md"}},             // held: never read as another word
		{Query{Text: "nod"}, []string{}},                                 // three letters: no typo reading
		{Query{Text: "pnpm NOT grafna"}, []string{"project_tooling.md"}}, // excluded words are as typed
		{Query{Text: `"pnmp"`}, []string{}},                              // a phrase is as typed
		{Query{Text: "graf"}, []string{}},
		{Query{Text: "graf", Prefix: true}, []string{"reference_grafana.md"}},
		{Query{Text: "graf ", Prefix: true}, []string{}},
		{Query{Text: "latency -graf", Prefix: true}, []string{"reference_grafana.md"}}, // a NOT word is never a prefix
	} {
		if got := files(t, ix, tc.q); !equal(got, tc.want) {
			t.Errorf("%+v: got %v, want %v", tc.q, got, tc.want)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
