package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/fakeembed"
)

// tableSemantic ranks the evaluation corpus by fakeembed's fixed table of
// concepts, in process (package embed does the same over HTTP).
type tableSemantic struct{ vecs map[string][]float32 }

func newTableSemantic(files map[string]string) *tableSemantic {
	s := &tableSemantic{vecs: map[string][]float32{}}
	for f, content := range files {
		s.vecs[f] = fakeembed.Vector(content)
	}
	return s
}

func (s *tableSemantic) Nearest(_ context.Context, text string, limit int) []Near {
	q := fakeembed.Vector(text)
	var out []Near
	for f, v := range s.vecs {
		out = append(out, Near{File: f, Score: cos(q, v)})
	}
	slices.SortFunc(out, func(a, b Near) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.File, b.File)
	})
	return out[:min(limit, len(out))]
}

func cos(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i] * b[i])
		na += float64(a[i] * a[i])
		nb += float64(b[i] * b[i])
	}
	return d / math.Sqrt(na*nb)
}

// TestFusion measures the asked set by words alone, fused by reciprocal
// rank and fused by weighted sums, with a semantic ranking from a fixed
// table of concepts; fusion must find the paraphrases words alone miss
// and lose no MRR.
func TestFusion(t *testing.T) {
	d, files := evalDir(t)
	sem := newTableSemantic(files)
	run := func(ix *Index) metrics {
		var m metrics
		for _, q := range askedQueries {
			hits, err := ix.Search(context.Background(), Query{Text: q.q, NoRecall: true, Prefix: q.kind == "prefix"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.File)
			}
			m.add(rankOf(got, q.want))
		}
		return m
	}
	lex := run(Open(d))
	fused := run(Open(d).WithSemantic(sem))
	t.Logf("words alone:     recall@5 %.3f  MRR %.3f", lex.recall5(), lex.mrr())
	t.Logf("sum w=%.1f (used): recall@5 %.3f  MRR %.3f", fuseWeight, fused.recall5(), fused.mrr())
	defer func(w float64) { fuseWeight, fuseRRF = w, false }(fuseWeight)
	fuseRRF = true
	rrf := run(Open(d).WithSemantic(sem))
	fuseRRF = false
	t.Logf("RRF k=%d:         recall@5 %.3f  MRR %.3f", rrfK, rrf.recall5(), rrf.mrr())
	for _, w := range []float64{0.3, 0.7, 1.0} {
		fuseWeight = w
		m := run(Open(d).WithSemantic(sem))
		t.Logf("sum w=%.1f:       recall@5 %.3f  MRR %.3f", w, m.recall5(), m.mrr())
	}
	if fused.recall5() <= lex.recall5() || fused.mrr() < lex.mrr() || fused.mrr() < rrf.mrr() {
		t.Errorf("fusion %.3f/%.3f does not beat words alone %.3f/%.3f and RRF %.3f/%.3f",
			fused.recall5(), fused.mrr(), lex.recall5(), lex.mrr(), rrf.recall5(), rrf.mrr())
	}
	// The paraphrase words alone miss, found through fusion.
	q := Query{Text: "who is responsible for invoices", NoRecall: true}
	want := "project_billing_service_owner.md"
	for _, c := range []struct {
		ix   *Index
		want bool
	}{{Open(d), false}, {Open(d).WithSemantic(sem), true}} {
		hits, _ := c.ix.Search(context.Background(), q)
		var got []string
		for _, h := range hits {
			got = append(got, h.File)
		}
		if r := rankOf(got, want); (r >= 1 && r <= 5) != c.want {
			t.Errorf("%q, semantic %v: %s at rank %d", q.Text, c.want, want, r)
		}
	}
}
