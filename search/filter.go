package search

import (
	"strings"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/distilled"
	"github.com/memdir/memdir/typesx"
)

// filter returns which documents a query's options keep: of the asked
// types, carrying the asked tags, changed inside the dates, not private
// unless asked, and, for log entries, not yet distilled by a dream (a
// distilled entry lives on in its topic).
// Each document is tested when a search asks, not up front: a warm
// search of 10,000 topics spent most of its time testing all of them.
func (ix *Index) filter(v *view, q *Query) func(g int32) bool {
	done := ix.distilled(v)
	return func(g int32) bool {
		k := v.seg(g)
		i := int(g - v.first[k])
		return !v.dead[k][i] && !done[g] && matchesOptions(v.segs[k], i, q)
	}
}

// matchesOptions reads only the fixed part of document i of s, unless
// the query asks for tags or dates.
func matchesOptions(s *segment, i int, q *Query) bool {
	h := s.head(i)
	if h.private && !q.IncludePrivate {
		return false
	}
	if len(q.Types) > 0 && !hasType(q.Types, h.typ) {
		return false
	}
	if len(q.Tags) == 0 && q.Since == "" && q.Until == "" {
		return true
	}
	d := s.doc(i)
	for _, want := range q.Tags {
		if !hasTag(d.tags, want) {
			return false
		}
	}
	if q.Since != "" || q.Until != "" {
		day := d.day
		if s.srcKind(int(h.src)) == srcTopic {
			day = time.Unix(d.modified, 0).In(time.Local).Format(time.DateOnly)
		}
		if q.Since != "" && day < q.Since || q.Until != "" && day > q.Until {
			return false
		}
	}
	return true
}

func hasType(types []typesx.Type, typ typesx.Type) bool {
	for _, t := range types {
		if t == typ {
			return true
		}
	}
	return false
}

func hasTag(tags []string, want string) bool {
	for _, t := range tags {
		if strings.EqualFold(strings.TrimPrefix(t, "#"), strings.TrimPrefix(want, "#")) {
			return true
		}
	}
	return false
}

// distilled marks the log entries a dream has already distilled, as
// dream records them. A dream state that cannot be read marks none: the
// entries stay findable.
func (ix *Index) distilled(v *view) map[int32]bool {
	var entries []dailylog.Entry
	var ids []int32
	for k, s := range v.segs {
		for src := range s.nsrc() {
			if s.srcKind(src) != srcLog {
				continue
			}
			first, n := s.srcDocs(src)
			for i := first; i < first+n; i++ {
				if !v.dead[k][i] {
					entries = append(entries, dailylog.Entry{File: s.srcPath(src), Hash: s.doc(i).hash})
					ids = append(ids, v.first[k]+int32(i))
				}
			}
		}
	}
	if len(entries) == 0 {
		return nil
	}
	done, err := distilled.Of(ix.dir.Path, entries)
	if err != nil {
		return nil
	}
	out := make(map[int32]bool, len(ids))
	for i, g := range ids {
		if done[i] {
			out[g] = true
		}
	}
	return out
}
