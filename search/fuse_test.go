package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memdir/memdir/internal/fakeembed"
)

// tableSemantic ranks the evaluation corpus by fakeembed's fixed table of
// concepts, in process (package embed does the same over HTTP).
type tableSemantic struct {
	vecs   map[string][]float32
	topics []Stamped // what the last search offered
}

func newTableSemantic(files map[string]string) *tableSemantic {
	s := &tableSemantic{vecs: map[string][]float32{}}
	for f, content := range files {
		s.vecs[f] = fakeembed.Vector(content)
	}
	return s
}

func (s *tableSemantic) Nearest(_ context.Context, text string, limit int, topics []Stamped) []Near {
	s.topics = nil
	for _, t := range topics {
		s.topics = append(s.topics, Stamped{File: strings.Clone(t.File), Stamp: t.Stamp})
	}
	q := fakeembed.Vector(text)
	var out []Near
	for _, t := range topics {
		if v, ok := s.vecs[t.File]; ok {
			out = append(out, Near{File: strings.Clone(t.File), Score: cos(q, v)})
		}
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
	with := func(f fusion) *Index {
		ix := Open(d).WithSemantic(sem)
		ix.fusion = f
		return ix
	}
	rrf := run(with(fusion{rrf: true}))
	t.Logf("RRF k=%d:         recall@5 %.3f  MRR %.3f", rrfK, rrf.recall5(), rrf.mrr())
	for _, w := range []float64{0.3, 0.7, 1.0} {
		m := run(with(fusion{weight: w}))
		t.Logf("sum w=%.1f:       recall@5 %.3f  MRR %.3f", w, m.recall5(), m.mrr())
	}
	if fused.recall5() <= lex.recall5() || fused.mrr() < lex.mrr() || fused.mrr() < rrf.mrr() {
		t.Errorf("fusion %.3f/%.3f does not beat words alone %.3f/%.3f and RRF %.3f/%.3f",
			fused.recall5(), fused.mrr(), lex.recall5(), lex.mrr(), rrf.recall5(), rrf.mrr())
	}
	// A paraphrase words alone miss, found through fusion as used (the
	// weight fuseWeight).
	q := Query{Text: "how large can a PR be", NoRecall: true}
	want := "feedback_pull_request_size.md"
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

// TestTopicStamps: the topics a fused search offers the semantic ranking
// are the view's live topics that are not private, each with its file's
// stamp as the index holds it: the delta's for a file read again, zero
// for a racy one (to be read again), none for a log or a masked copy.
func TestTopicStamps(t *testing.T) {
	base, delta := newBuilder(1, 0), newBuilder(2, 1)
	base.addFile(source{path: "project_billing.md", kind: srcTopic, size: 10, mtime: 100, ctime: 101, ino: 7},
		[]byte(topicFile("project", "Billing", "Who owns billing", "Priya owns invoices.")))
	base.addFile(source{path: "project_kafka.md", kind: srcTopic, size: 20, mtime: 200, ctime: 201, ino: 8},
		[]byte(topicFile("project", "Kafka", "Topic naming", "Topics use team.domain.event.")))
	base.addFile(source{path: "user_health.md", kind: srcTopic, size: 30, mtime: 300, ctime: 301, ino: 9},
		[]byte(topicFile("user", "Health", "Private", "A clinic bill.", "private: true")))
	base.addFile(source{path: "project_racy.md", kind: srcTopic, size: 40, mtime: 400, ctime: 401, ino: 10, racy: true},
		[]byte(topicFile("project", "Racy", "Just written", "Written a moment ago.")))
	delta.addFile(source{path: "project_kafka.md", kind: srcTopic, size: 25, mtime: 250, ctime: 251, ino: 11},
		[]byte(topicFile("project", "Kafka", "Topic naming", "Topics use team.domain.event, lowercase.")))
	delta.addFile(source{path: "logs/2026/11/2026-11-20.md", kind: srcLog},
		[]byte("# 2026-11-20\n\n- 10:04 [project] Kafka topics renamed.\n"))
	segs := make([]*segment, 2)
	for i, b := range []*builder{base, delta} {
		var err error
		if segs[i], err = decodeSegment(b.encode()); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]Stamp{}
	for _, st := range newView(&current{base: segs[0], delta: segs[1]}).topicStamps() {
		if _, twice := got[st.File]; twice {
			t.Errorf("%s offered twice", st.File)
		}
		got[st.File] = st.Stamp
	}
	want := map[string]Stamp{
		"project_billing.md": {Size: 10, Mtime: 100, Ctime: 101, Ino: 7},
		"project_kafka.md":   {Size: 25, Mtime: 250, Ctime: 251, Ino: 11},
		"project_racy.md":    {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("topic stamps (-want +got):\n%s", diff)
	}
}
