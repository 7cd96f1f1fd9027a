package dream

import (
	"cmp"
	"slices"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/typesx"
)

// Candidate generation: which facts and topics an entry is compared with.
// The words a project's notes share (its name, its components, "part")
// are in as many facts as the memory holds, so walking their posting
// lists makes a dream quadratic in its facts. An entry's terms are looked
// up rarest first, and a posting list longer than postingCap (a common
// word's) is walked from its newest end, postingCap long: every fact or
// topic that shares a rarer term with the entry is found, and is then
// counted exactly; one that shares only common words with it is found
// among the newest postingCap of each. A memory whose words each appear
// in at most postingCap facts is searched exactly as by a full scan.
// Measured by scripts/bench-dream (distinct facts at 7,000 to 112,000
// entries) and TestOneFactOnce, which the cap leaves unchanged.

// postingCap is the longest posting list walked whole.
const postingCap = 64

// newest returns the newest postingCap items of a posting list.
func newest[T any](list []T) []T { return list[max(0, len(list)-postingCap):] }

// hit is how much a candidate shares with an entry: distinct terms, and
// terms with repeats counted as Compare counts them. Exact is set once
// every term of the entry was counted.
type hit struct {
	distinct, shared int
	exact            bool
}

// rarestFirst returns the terms of e (without those holding digits,
// unless digits), rarest first by the length of their posting lists
// (df), ties by term.
func rarestFirst(e memdir.Terms, digits bool, df func(string) int) []string {
	var out []string
	for t := range e {
		if digits || !hasDigit(t) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(df(a), df(b)), cmp.Compare(a, b))
	})
	return out
}

// candidates returns the facts that may say what an entry says: its terms
// are full (title and text) and its text alone has textLen terms. A fact
// is the same only if it shares at least minShared distinct terms with
// the entry, and (restates, on either pair of bags) at least
// FactThreshold of the smaller bag, which is no smaller than the smaller
// of the texts alone: facts that share fewer are never returned.
func (x *factIndex) candidates(e memdir.Terms, textLen int) []*fact {
	num := ""
	for t := range e {
		// Facts with numbers must hold them all: the rarest finds them.
		if hasDigit(t) && (num == "" || len(x.byNum[t]) < len(x.byNum[num])) {
			num = t
		}
	}
	df := func(t string) int {
		if num == "" {
			return len(x.plain[t]) + len(x.numbers[t])
		}
		return len(x.plain[t])
	}
	terms := rarestFirst(e, false, df)
	if x.hits == nil {
		x.hits = map[*fact]hit{}
	}
	hits := x.hits
	clear(hits)
	visit := func(list []*fact, t string) {
		for _, f := range list {
			h := hits[f]
			h.distinct++
			h.shared += min(e[t], f.fullCount(t))
			hits[f] = h
		}
	}
	common := len(terms)
	for i, t := range terms {
		if df(t) > postingCap {
			common = i
			break
		}
		visit(x.plain[t], t)
		if num == "" {
			visit(x.numbers[t], t)
		}
	}
	// A fact found by a rare term: its common terms are counted by
	// looking them up, not by walking their lists.
	for f, h := range hits {
		for _, t := range terms[common:] {
			if n := f.fullCount(t); n > 0 {
				h.distinct++
				h.shared += min(e[t], n)
			}
		}
		h.exact = true
		hits[f] = h
	}
	// A fact no rare term found shares only common terms with the entry,
	// at least minShared of them, so it holds one of all but the
	// commonest minShared-1: the newest facts of those are counted.
	rest := terms[common:]
	for _, t := range rest[:max(0, len(rest)-minShared+1)] {
		countCommon(hits, newest(x.plain[t]), e, rest)
		if num == "" {
			countCommon(hits, newest(x.numbers[t]), e, rest)
		}
	}
	var out []*fact
	for f, h := range hits {
		if !f.gone && h.distinct >= minShared && mayRestate(h.shared, textLen, len(f.terms)) {
			out = append(out, f)
		}
	}
	if num != "" {
		for _, f := range newest(x.byNum[num]) {
			if !f.gone && mayRestate(sharedFull(e, f), textLen, len(f.terms)) {
				out = append(out, f)
			}
		}
	}
	return out
}

// sharedFull is how many terms e shares with the full terms of f,
// repeats counted as memdir.Compare counts them.
func sharedFull(e memdir.Terms, f *fact) int {
	n := 0
	for t, c := range e {
		n += min(c, f.fullCount(t))
	}
	return n
}

// countCommon counts the common terms the facts of list share with the
// entry e, for those not counted yet.
func countCommon(hits map[*fact]hit, list []*fact, e memdir.Terms, common []string) {
	for _, f := range list {
		if hits[f].exact {
			continue
		}
		h := hit{exact: true}
		for _, t := range common {
			if n := f.fullCount(t); n > 0 {
				h.distinct++
				h.shared += min(e[t], n)
			}
		}
		hits[f] = h
	}
}

// mayRestate reports whether a fact that shares shared terms with an
// entry can be the same fact as it: restates asks memdir's SameFact of
// the full bags or of the texts alone, so at least minShared terms and
// FactThreshold of the smaller text.
func mayRestate(shared, textLen, factLen int) bool {
	small := min(textLen, factLen)
	return shared >= minShared && (small == 0 || float64(shared)/float64(small) >= memdir.FactThreshold)
}

// nearestByWords returns the topic of type typ whose name and description
// are the same memory as probe (memdir's SameMemory: a Jaccard score of
// at least one half) with the best score, ties by file name, or nil.
//
// A topic that scores one half shares at least half of probe's terms
// (repeats counted), so once the terms not yet looked up hold less than
// half of probe, a topic that shares none of those looked up cannot
// score: the rarest terms are looked up until then, and a topic is
// scored only when what it shares of them and what is left could make
// half.
func (b *builtin) nearestByWords(typ typesx.Type, probe memdir.Terms) *work {
	post := b.postings[typ]
	terms := rarestFirst(probe, true, func(t string) int { return len(post[t]) })
	n := probe.Len()
	rest := n
	shared := map[*work]int{}
	for _, t := range terms {
		if 2*rest < n {
			break
		}
		rest -= probe[t]
		for _, w := range newest(post[t]) {
			shared[w] += min(probe[t], w.words.count(t))
		}
	}
	var best *work
	bestScore := 0.0
	for w, s := range shared {
		if 2*(s+rest) < n {
			continue
		}
		sc := memdir.Compare(probe, w.words.terms())
		if !sc.SameMemory() {
			continue
		}
		if best == nil || sc.Jaccard > bestScore || sc.Jaccard == bestScore && w.t.File < best.t.File {
			best, bestScore = w, sc.Jaccard
		}
	}
	return best
}
