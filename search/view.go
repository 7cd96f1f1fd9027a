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

// newView masks the base's documents of every path the delta read again
// or removed. The average field lengths come from each segment's sums,
// less the masked documents': no document is read for them.
func newView(cur *current) *view {
	v := &view{segs: []*segment{cur.base}}
	if cur.delta != nil {
		v.segs = append(v.segs, cur.delta)
	}
	var sum [numFields]float64
	next := int32(0)
	for _, s := range v.segs {
		v.first = append(v.first, next)
		next += int32(s.ndoc())
		v.dead = append(v.dead, make([]bool, s.ndoc()))
		v.live += s.ndoc()
		for f := range sum {
			sum[f] += float64(s.lensSum[f])
		}
	}
	if d := cur.delta; d != nil {
		base := cur.base
		mask := func(p string) {
			i := base.findSource(p)
			if i < 0 {
				return
			}
			first, n := base.srcDocs(i)
			for x := first; x < first+n; x++ {
				if v.dead[0][x] {
					continue
				}
				v.dead[0][x] = true
				v.live--
				for f, l := range base.lens(x) {
					sum[f] -= float64(l)
				}
			}
		}
		for _, p := range d.removed {
			mask(p)
		}
		for i := range d.nsrc() {
			mask(d.srcPath(i))
		}
	}
	for f := range sum {
		v.avg[f] = max(sum[f]/float64(max(v.live, 1)), 1)
	}
	return v
}

// at returns the segment of a global document number and the document's
// number there.
func (v *view) at(g int32) (*segment, int) {
	k := v.seg(g)
	return v.segs[k], int(g - v.first[k])
}

// seg is the number of the segment that holds global document g.
func (v *view) seg(g int32) int {
	k := len(v.segs) - 1
	for k > 0 && g < v.first[k] {
		k--
	}
	return k
}

// each calls fn for every live document.
func (v *view) each(fn func(g int32, s *segment, i int)) {
	for k, s := range v.segs {
		for i := range s.ndoc() {
			if !v.dead[k][i] {
				fn(v.first[k]+int32(i), s, i)
			}
		}
	}
}
