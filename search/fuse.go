package search

import (
	"context"
	"slices"
)

// Semantic ranks topics by meaning: package embed, through the user's own
// embedding server. Nearest returns topic files with their similarity to
// text (cosine, 1 at best), nearest first; nothing when it cannot answer
// (it says why itself), and the search answers from words alone. topics
// are the topics it may return (the index's, private ones left out),
// each with the stamp of the file as the index read it, so that it
// reads again only the files that changed; their File strings may point
// into the index and are valid only during the call.
type Semantic interface {
	Nearest(ctx context.Context, text string, limit int, topics []Stamped) []Near
}

// Stamped is a topic file and the stamp of what the index read of it.
type Stamped struct {
	File  string
	Stamp Stamp
}

// Stamp tells a file's versions apart: its size, modification and change
// times (nanoseconds) and inode. An atomic save (a new inode) or a copy
// that keeps the modification time (a new change time) is a new stamp.
// The zero Stamp vouches for nothing: the index read the file too soon
// after a change to trust its stamp, and it must be read again.
type Stamp struct {
	Size, Mtime, Ctime int64
	Ino                uint64
}

// Near is a topic a Semantic ranking found, and how near it is.
type Near struct {
	File  string
	Score float64
}

// WithSemantic makes the index's searches fuse sem's ranking with the
// lexical one, and returns the index.
func (ix *Index) WithSemantic(sem Semantic) *Index {
	ix.sem = sem
	return ix
}

// Fusion of the two rankings: a weighted sum, the lexical score over the
// best lexical score of the query plus fuseWeight times the cosine, over
// the first fuseDepth of each ranking. Measured on the asked evaluation
// set with a semantic ranking from a fixed table of concepts
// (search/fuse_test.go; words alone: recall@5 0.914, MRR 0.883):
// reciprocal-rank fusion (k 60) fell to 0.897 and 0.653, since it gives a
// noisy semantic ranking as much say as a sure lexical one; sums with
// weights 0.3, 0.5 and 0.7 reached 0.931/0.908, 0.948/0.918 and
// 0.948/0.930, and 1.0 fell to 0.793/0.639. 0.5 keeps a margin from that
// cliff. A memory whose name is the query stays first.
const (
	rrfK      = 60
	fuseDepth = 50
)

// fuseWeight is the cosine's weight in the sum.
const fuseWeight = 0.5

// fusion is how an index fuses the rankings: the weighted sum with
// fuseWeight unless the evaluation asks for another weight, or for
// reciprocal-rank fusion (rrf), to measure them.
type fusion struct {
	weight float64 // 0: fuseWeight
	rrf    bool
}

// fuse merges the lexical ranking with the semantic one of text, keeping
// the documents keep allows, and returns the first limit.
func (ix *Index) fuse(ctx context.Context, v *view, lex []ranked, text string, keep func(int32) bool, limit int) []ranked {
	near := ix.sem.Nearest(ctx, text, fuseDepth, v.topicStamps())
	weight, rrf := fuseWeight, ix.fusion.rrf
	if ix.fusion.weight != 0 {
		weight = ix.fusion.weight
	}
	if len(near) == 0 {
		return lex[:min(limit, len(lex))]
	}
	score := map[int32]float64{}
	tier := map[int32]int32{}
	cover := map[int32]float64{}
	best := 0.0
	for _, r := range lex {
		best = max(best, r.score)
	}
	for i, r := range lex {
		if !rrf {
			score[r.g] += r.score / best
		} else {
			score[r.g] += 1 / float64(rrfK+i+1)
		}
		tier[r.g] = min(r.tier, 1)
		cover[r.g] = r.cover
	}
	rank := 0
	for _, n := range near {
		g, ok := v.topicDoc(n.File)
		if !ok || !keep(g) {
			continue
		}
		rank++
		if !rrf {
			score[g] += weight * n.Score
		} else {
			score[g] += 1 / float64(rrfK+rank)
		}
		if _, ok := tier[g]; !ok {
			tier[g] = 1
		}
	}
	out := make([]ranked, 0, len(score))
	for g, s := range score {
		out = append(out, ranked{g: g, tier: tier[g], score: s, cover: cover[g]})
	}
	slices.SortFunc(out, func(a, b ranked) int {
		switch {
		case a.tier != b.tier:
			return int(a.tier - b.tier)
		case a.score != b.score:
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return int(a.g - b.g)
	})
	return out[:min(limit, len(out))]
}

// topicDoc is the live document of the topic file at path.
func (v *view) topicDoc(path string) (int32, bool) {
	for k := len(v.segs) - 1; k >= 0; k-- {
		s := v.segs[k]
		src := s.findSource(path)
		if src < 0 || s.srcKind(src) != srcTopic {
			continue
		}
		first, n := s.srcDocs(src)
		if n > 0 && !v.dead[k][first] {
			return v.first[k] + int32(first), true
		}
	}
	return 0, false
}

// topicStamps lists the live topics that are not private, with the
// stamps of their files (zero for a racy one).
func (v *view) topicStamps() []Stamped {
	out := make([]Stamped, 0, v.live)
	v.each(func(_ int32, s *segment, i int) {
		h := s.head(i)
		if h.private || s.srcKind(int(h.src)) != srcTopic {
			return
		}
		src := s.source(int(h.src))
		st := Stamped{File: src.path}
		if !src.racy {
			st.Stamp = Stamp{Size: src.size, Mtime: src.mtime, Ctime: src.ctime, Ino: src.ino}
		}
		out = append(out, st)
	})
	return out
}
