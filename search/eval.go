package search

import (
	"math"
	"sort"
	"strings"
)

// Relevance is BM25 with field weights: for each query word, each
// field's frequency is normalised by the field's length against its
// average (b), saturated (k1), weighted, summed over the fields and
// multiplied by the word's idf. A name says what a memory is about, a
// description sums it up, tags label it, and the body holds the detail.
//
// Each field saturates on its own. BM25F proper adds the weighted
// frequencies first and saturates once; on the evaluation set (1,036
// topics whose distractors repeat common words) that lets a body full of
// a common word outrank a name that holds it: MRR 0.941 against 0.965,
// and it moved with every weight and k1 tried, where this did not.
var (
	fieldWeight = [numFields]float64{fieldName: 5, fieldDesc: 3, fieldTags: 2.5, fieldBody: 1}
	fieldB      = [numFields]float64{fieldName: 0.5, fieldDesc: 0.5, fieldTags: 0.3, fieldBody: 0.75}
)

const (
	// k1 is BM25's saturation: how fast more occurrences stop counting
	// (the top of BM25's usual 1.2 to 2.0).
	k1 = 2.0
	// maxExpansions bounds the words one prefix stands for.
	maxExpansions = 512
)

// match is a document a query (or part of it) matched: its score and
// how many of the query's words it has.
type match struct {
	doc   int32
	score float64
	words float64
}

// evaluator runs a parsed query over a view. keep filters documents
// (types, tags, dates, privacy); the collection statistics (idf, average
// lengths) stay those of every live document.
type evaluator struct {
	v       *view
	keep    func(g int32) bool
	relaxed bool // read words side by side as OR
}

func (e *evaluator) eval(n *node) []match {
	switch n.kind {
	case nTerm:
		return weigh(e.leaf(e.termTF(n.text)), n.weight)
	case nPrefix:
		return e.leaf(e.prefixTF(n.text))
	case nPhrase:
		return e.leaf(e.phraseTF(n.seq))
	case nOr:
		return e.or(n)
	case nAnd:
		return e.and(n)
	}
	return nil // a lone nNot never reaches here: the parser refuses it
}

func (e *evaluator) or(n *node) []match {
	var out []match
	for _, k := range n.kids {
		out = unite(out, e.eval(k), n.alt)
	}
	return out
}

func (e *evaluator) and(n *node) []match {
	var pos []match
	first := true
	var neg []*node
	for _, k := range n.kids {
		if k.kind == nNot {
			neg = append(neg, k.kids[0])
			continue
		}
		m := e.eval(k)
		switch {
		case first:
			pos, first = m, false
		case e.relaxed && n.implicit:
			pos = unite(pos, m, false)
		default:
			pos = intersect(pos, m)
		}
	}
	for _, k := range neg {
		pos = subtract(pos, e.eval(k))
	}
	return pos
}

// tfs is the per-field frequency of one query word in the documents that
// have it (sorted by document), and in how many live documents it occurs.
type tfs struct {
	docs []int32
	tf   [][numFields]uint32
	df   int
}

func (t *tfs) add(g int32, tf [numFields]uint32) {
	t.docs = append(t.docs, g)
	t.tf = append(t.tf, tf)
}

func (e *evaluator) termTF(term string) *tfs {
	ps := make([]postings, len(e.v.segs))
	n := 0
	for i, s := range e.v.segs {
		ps[i] = s.lookup(term)
		n += ps[i].n
	}
	// Sized once: a common word is in most documents, and growing the
	// lists by doubling faulted in twice the memory.
	t := &tfs{docs: make([]int32, 0, n), tf: make([][numFields]uint32, 0, n)}
	for i, s := range e.v.segs {
		p := &ps[i]
		for p.next() {
			if int(p.doc) >= s.ndoc() || e.v.dead[i][p.doc] {
				continue
			}
			t.df++
			if g := e.v.first[i] + int32(p.doc); e.keep(g) {
				t.add(g, p.tf)
			}
		}
	}
	return t
}

// prefixTF treats every word starting with prefix as one word: a
// document's frequency is the sum over them.
func (e *evaluator) prefixTF(prefix string) *tfs {
	sum := map[int32]*[numFields]uint32{}
	t := &tfs{}
	for i, s := range e.v.segs {
		for _, term := range expand(s, prefix) {
			p := s.lookup(term)
			for p.next() {
				if int(p.doc) >= s.ndoc() || e.v.dead[i][p.doc] {
					continue
				}
				g := e.v.first[i] + int32(p.doc)
				acc := sum[g]
				if acc == nil {
					acc = &[numFields]uint32{}
					sum[g] = acc
					t.df++
				}
				for f := range acc {
					acc[f] += p.tf[f]
				}
			}
		}
	}
	docs := make([]int32, 0, len(sum))
	for g := range sum {
		if e.keep(g) {
			docs = append(docs, g)
		}
	}
	sort.Slice(docs, func(a, b int) bool { return docs[a] < docs[b] })
	for _, g := range docs {
		t.add(g, *sum[g])
	}
	return t
}

// expand lists the terms of the words in s that start with prefix.
func expand(s *segment, prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for i := s.surfaces.lowerBound(prefix); i < s.surfaces.n && len(out) < maxExpansions; i++ {
		w, val := s.surfaces.record(i)
		if !strings.HasPrefix(w, prefix) {
			break
		}
		d := &dec{b: val}
		if n := int(d.uvarint()); !d.bad && n < s.dict.n {
			if term, _ := s.dict.record(n); !seen[term] {
				seen[term] = true
				out = append(out, term)
			}
		}
	}
	return out
}

// leaf scores the documents a query word matched.
func (e *evaluator) leaf(t *tfs) []match {
	if len(t.docs) == 0 {
		return nil
	}
	idf := e.idf(t.df)
	out := make([]match, len(t.docs))
	for i, g := range t.docs {
		s, x := e.v.at(g)
		lens := s.lens(x)
		out[i] = match{doc: g, score: idf * e.saturate(&t.tf[i], &lens), words: 1}
	}
	return out
}

// idf is the weight of a word df of the live documents have.
func (e *evaluator) idf(df int) float64 {
	n := float64(e.v.live)
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// saturate is the term part of the score: each field's frequency,
// normalised by the field's length and saturated, weighted and summed.
func (e *evaluator) saturate(tf, lens *[numFields]uint32) float64 {
	var s float64
	for f, n := range tf {
		if n == 0 {
			continue
		}
		norm := 1 - fieldB[f] + fieldB[f]*float64(lens[f])/e.v.avg[f]
		s += fieldWeight[f] * float64(n) * (k1 + 1) / (k1*norm + float64(n))
	}
	return s
}

// unite merges two sorted match lists; alt keeps the better reading of
// a compound instead of adding both.
func unite(a, b []match, alt bool) []match {
	out := make([]match, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && a[i].doc < b[j].doc:
			out = append(out, a[i])
			i++
		case i >= len(a) || b[j].doc < a[i].doc:
			out = append(out, b[j])
			j++
		default:
			m := a[i]
			if alt {
				m.score, m.words = max(m.score, b[j].score), max(m.words, b[j].words)
			} else {
				m.score, m.words = m.score+b[j].score, m.words+b[j].words
			}
			out = append(out, m)
			i, j = i+1, j+1
		}
	}
	return out
}

func intersect(a, b []match) []match {
	var out []match
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].doc < b[j].doc:
			i++
		case b[j].doc < a[i].doc:
			j++
		default:
			m := a[i]
			m.score, m.words = m.score+b[j].score, m.words+b[j].words
			out = append(out, m)
			i, j = i+1, j+1
		}
	}
	return out
}

func subtract(a, b []match) []match {
	var out []match
	j := 0
	for _, m := range a {
		for j < len(b) && b[j].doc < m.doc {
			j++
		}
		if j < len(b) && b[j].doc == m.doc {
			continue
		}
		out = append(out, m)
	}
	return out
}

// wordCount is how many words a query asks for; a compound counts once.
func wordCount(n *node) float64 {
	switch {
	case n.kind == nNot:
		return 0
	case n.kind == nTerm || n.kind == nPrefix || n.kind == nPhrase || n.alt:
		return 1
	}
	var c float64
	for _, k := range n.kids {
		c += wordCount(k)
	}
	return c
}

// hasImplicit reports whether a query has words side by side, which
// relax to OR when no memory has them all.
func hasImplicit(n *node) bool {
	if n.kind == nAnd && n.implicit {
		return true
	}
	for _, k := range n.kids {
		if k.kind != nNot && hasImplicit(k) {
			return true
		}
	}
	return false
}
