package search

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memdir/memdir/typesx"
)

// TestFlatMatchesEval runs random queries of plain words through flat
// and through eval, over an index with a delta (documents masked) and
// over its base alone, with a private topic and log entries, under
// several filters: both must return
// the same documents with the same scores and word counts, bit for bit.
func TestFlatMatchesEval(t *testing.T) {
	d := benchDir(t, 300)
	writeFile(t, filepath.Join(d.Path, "user_secret_pager.md"),
		"---\nname: Secret pager\ndescription: pager vault staging\ntype: user\nprivate: true\n---\n\nThe pager vault staging rollout.\n")
	ents, err := os.ReadDir(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	// A base of every topic, and a delta that reads a dozen of them
	// again (masking the base's copies) and adds a day of log entries.
	base, delta := newBuilder(1, 0), newBuilder(2, 1)
	for _, e := range ents {
		if !isTopicSource(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d.Path, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		base.addFile(source{path: e.Name(), kind: srcTopic}, data)
		if len(delta.sources) < 12 {
			delta.addFile(source{path: e.Name(), kind: srcTopic}, append(data, "\nPager vault note, staging rollout.\n"...))
		}
	}
	delta.addFile(source{path: "logs/2026/11/2026-11-20.md", kind: srcLog},
		[]byte("# 2026-11-20\n\n- 10:04 [project] Pager: the vault staging rollout paged twice.\n- 11:00 deploy vault again\n"))
	segs := make([]*segment, 2)
	for i, b := range []*builder{base, delta} {
		if segs[i], err = decodeSegment(b.encode()); err != nil {
			t.Fatal(err)
		}
	}
	v := newView(&current{base: segs[0], delta: segs[1]})
	if v.live != segs[0].ndoc()+segs[1].ndoc()-12 {
		t.Fatalf("%d live documents; want the delta to mask 12 of the base's", v.live)
	}
	var terms []string
	for i := range segs[0].dict.n {
		k, _ := segs[0].dict.record(i)
		terms = append(terms, k)
	}
	terms = append(terms, "zzabsent", "the")
	queries := []Query{{}, {IncludePrivate: true}, {Types: []typesx.Type{typesx.Project, typesx.User}}}
	rng := rand.New(rand.NewPCG(1, 2))
	// Over base and delta, and over the base alone (no document masked).
	views := []*view{v, newView(&current{base: segs[0]})}
	for i := range 800 {
		root := randomFlat(rng, terms)
		q := queries[i%len(queries)]
		limit := []int{1, 6, 10, 1000}[i%4]
		v := views[i%2]
		keep := Open(d).filter(v, &q)
		fast := &evaluator{v: v, keep: keep}
		strict, loose, ok := fast.flat(root, limit)
		if !ok {
			t.Fatalf("query %d: flat refused plain words", i)
		}
		slow := &evaluator{v: v, keep: keep}
		wantStrict := slow.eval(root)
		var wantLoose []match
		if len(wantStrict) < limit && hasImplicit(root) {
			slow.relaxed = true
			wantLoose = subtract(slow.eval(root), wantStrict)
		}
		if !slices.Equal(strict, wantStrict) || !slices.Equal(loose, wantLoose) {
			t.Fatalf("query %d (%s, limit %d, %+v): flat gave %d+%d matches, eval %d+%d, or other scores",
				i, rootText(root), limit, q, len(strict), len(loose), len(wantStrict), len(wantLoose))
		}
	}
}

func TestFlatLeavesOtherQueriesToEval(t *testing.T) {
	for _, text := range []string{`"vault router"`, "deploy*", "vault -router", "vault OR router", "api-latency dashboard"} {
		pq, err := parseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		e := &evaluator{v: &view{}, keep: func(int32) bool { return true }}
		if _, _, ok := e.flat(pq.root, 10); ok {
			t.Errorf("flat took %q; want it left to eval", text)
		}
	}
}

// randomFlat is one to six terms side by side, or joined by an explicit
// AND, now and then one of them weighted as a near spelling.
func randomFlat(rng *rand.Rand, terms []string) *node {
	n := 1 + rng.IntN(6)
	kids := make([]*node, n)
	for i := range kids {
		kids[i] = &node{kind: nTerm, text: terms[rng.IntN(len(terms))]}
		if rng.IntN(8) == 0 {
			kids[i].weight = fuzzyWeight1
		}
	}
	if n == 1 {
		return kids[0]
	}
	return &node{kind: nAnd, implicit: rng.IntN(5) > 0, kids: kids}
}

func rootText(n *node) string {
	if n.kind == nTerm {
		return n.text
	}
	s := ""
	for _, k := range n.kids {
		s += k.text + " "
	}
	return fmt.Sprintf("%s(implicit %v)", s, n.implicit)
}
