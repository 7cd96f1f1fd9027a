package search

import (
	"math"
	"slices"
	"time"

	"github.com/memdir/memdir/typesx"
)

// Kinds of hit.
const (
	kindTopic = "topic"
	kindLog   = "log"
)

// Ranking after relevance. Recency fades a memory's score towards
// 1-maxFade of it, by half-lives that follow how fast each kind of
// memory goes stale: user and feedback topics never fade, reference
// topics over a year, project topics over a season, undistilled log
// entries (news a dream has not filed yet) over a week. An expired topic
// loses a fifth more. A topic recalled often gains up to maxBoost. None
// of it moves a memory whose name is exactly the query below one whose
// name is not.
const (
	maxFade     = 0.1
	day         = 24 * time.Hour
	expiredCut  = 0.8
	maxBoost    = 0.15
	exactWindow = 200 // the best matches checked for an exact name
)

// HalfLife returns how long a memory of type t (a log entry when log is
// set) takes to lose half of what recency can take from its score; 0
// means it never fades.
func HalfLife(t typesx.Type, log bool) time.Duration {
	switch {
	case log:
		return 7 * day
	case t == typesx.Project:
		return 90 * day
	case t == typesx.Reference:
		return 365 * day
	}
	return 0
}

// recency is the factor age leaves of the score of document i of s,
// whose fixed part is h; today is now's date.
func recency(s *segment, i int, h *docHead, now time.Time, today string) float64 {
	f := 1.0
	if hl := HalfLife(h.typ, s.srcKind(int(h.src)) == srcLog); hl > 0 {
		if age := now.Sub(time.Unix(h.modified, 0)); age > 0 {
			f = 1 - maxFade*(1-math.Exp2(-float64(age)/float64(hl)))
		}
	}
	if h.expiring && s.expires(i) < today {
		f *= expiredCut
	}
	return f
}

// recallBoost is the factor recalls add: 5% for one, 10% for three,
// maxBoost from seven on.
func recallBoost(n int) float64 { return 1 + min(maxBoost, 0.05*math.Log2(1+float64(n))) }

// ranked is a document in the order a search returns it.
type ranked struct {
	g     int32
	tier  int32 // 0 exact name, 1 has every word, 2 has some
	score float64
	cover float64 // the share of the query's words the document has
}

// rank evaluates the query, relaxing words side by side to OR when fewer
// than limit memories have them all (those that have them all still come
// first), and orders the hits.
func (ix *Index) rank(v *view, pq *parsed, keep func(int32) bool, limit int, now time.Time, recalls map[string]recall) []ranked {
	e := &evaluator{v: v, keep: keep}
	e.fuzz(pq)
	strict, loose, flat := e.flat(pq.root, limit)
	if !flat {
		strict = e.eval(pq.root)
		if len(strict) < limit && hasImplicit(pq.root) {
			e.relaxed = true
			loose = subtract(e.eval(pq.root), strict)
		}
	}
	all := wordCount(pq.root)
	full := all + float64(pq.dropped) // the words asked for, searched or not
	for i := range loose {
		loose[i].score *= loose[i].words / all
	}
	out := make([]ranked, 0, len(strict)+len(loose))
	for _, m := range strict {
		out = append(out, ranked{g: m.doc, score: m.score, tier: 1, cover: all / full})
	}
	for _, m := range loose {
		out = append(out, ranked{g: m.doc, score: m.score, tier: 2, cover: min(1, m.words/full)})
	}
	markExact(v, out, pq.words)
	today := now.Format(time.DateOnly)
	for i := range out {
		r := &out[i]
		s, x := v.at(r.g)
		h := s.head(x)
		r.score *= recency(s, x, &h, now, today)
		if len(recalls) > 0 && s.srcKind(int(h.src)) == srcTopic {
			r.score *= recallBoost(recalls[s.srcPath(int(h.src))].count)
		}
	}
	return best(v, out, limit)
}

// best returns the first limit of out in ranking order, sorting only
// those: a common word matches thousands of memories.
func best(v *view, out []ranked, limit int) []ranked {
	top := make([]ranked, 0, min(limit, len(out))+1)
	for i := range out {
		r := &out[i]
		if len(top) == limit && !before(v, r, &top[len(top)-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, r, func(a ranked, b *ranked) int {
			if before(v, &a, b) {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, *r)
		if len(top) > limit {
			top = top[:limit]
		}
	}
	return top
}

// markExact puts the memories whose name is exactly the query's words in
// tier 0. Only the best matches by relevance can be: a name that is the
// whole query scores high on the heaviest field.
func markExact(v *view, out []ranked, words []string) {
	floor := math.Inf(-1)
	if len(out) > exactWindow {
		scores := make([]float64, len(out))
		for i := range out {
			scores[i] = out[i].score
		}
		slices.Sort(scores)
		floor = scores[len(scores)-exactWindow]
	}
	tk := newTokenizer()
	for i := range out {
		if out[i].tier != 1 || out[i].score < floor {
			continue
		}
		if s, x := v.at(out[i].g); sameWords(tk, s.name(x), words) {
			out[i].tier = 0
		}
	}
}

// sameWords reports whether text has exactly the folded words want.
func sameWords(tk *tokenizer, text string, want []string) bool {
	n, same := 0, true
	tk.each(text, 0, func(w word) {
		if w.whole {
			return
		}
		same = same && n < len(want) && want[n] == w.folded
		n++
	})
	return same && n == len(want)
}

// before orders ranked documents: tier, score, the newer, path, entry.
func before(v *view, a, b *ranked) bool {
	switch {
	case a.tier != b.tier:
		return a.tier < b.tier
	case a.score != b.score:
		return a.score > b.score
	}
	sa, xa := v.at(a.g)
	sb, xb := v.at(b.g)
	ha, hb := sa.head(xa), sb.head(xb)
	if ha.modified != hb.modified {
		return ha.modified > hb.modified
	}
	if pa, pb := sa.srcPath(int(ha.src)), sb.srcPath(int(hb.src)); pa != pb {
		return pa < pb
	}
	return ha.entry < hb.entry
}
