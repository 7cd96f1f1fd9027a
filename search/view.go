package search

// view is the index as one collection: the base, the delta over it, and
// which of their documents are live. Documents are numbered globally:
// the base's first, then the delta's.
type view struct {
	segs  []*segment
	dead  [][]bool
	first []int32
	live  int
	avg   [numFields]float64
}

func newView(cur *current) *view {
	v := &view{segs: []*segment{cur.base}}
	masked := map[string]bool{}
	if cur.delta != nil {
		v.segs = append(v.segs, cur.delta)
		for _, p := range cur.delta.removed {
			masked[p] = true
		}
		for _, s := range cur.delta.sources {
			masked[s.path] = true
		}
	}
	var sum [numFields]float64
	next := int32(0)
	for i, s := range v.segs {
		v.first = append(v.first, next)
		next += int32(len(s.docs))
		dead := make([]bool, len(s.docs))
		for d := range s.docs {
			if i == 0 && len(masked) > 0 && masked[s.sources[s.docs[d].src].path] {
				dead[d] = true
				continue
			}
			v.live++
			for f, l := range s.docs[d].lens {
				sum[f] += float64(l)
			}
		}
		v.dead = append(v.dead, dead)
	}
	for f := range sum {
		v.avg[f] = max(sum[f]/float64(max(v.live, 1)), 1)
	}
	return v
}

// at returns the segment, its document and its source for a global
// document number.
func (v *view) at(g int32) (*segment, *doc, *source) {
	i := len(v.segs) - 1
	for i > 0 && g < v.first[i] {
		i--
	}
	s := v.segs[i]
	d := &s.docs[g-v.first[i]]
	return s, d, &s.sources[d.src]
}

// each calls fn for every live document.
func (v *view) each(fn func(g int32, d *doc, src *source)) {
	for i, s := range v.segs {
		for d := range s.docs {
			if !v.dead[i][d] {
				fn(v.first[i]+int32(d), &s.docs[d], &s.sources[s.docs[d].src])
			}
		}
	}
}
