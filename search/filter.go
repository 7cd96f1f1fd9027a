package search

import (
	"strings"
	"time"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/typesx"
)

// filter returns which documents a query's options keep: of the asked
// types, carrying the asked tags, changed inside the dates, not private
// unless asked, and, for log entries, not yet distilled by a dream (a
// distilled entry lives on in its topic).
func (ix *Index) filter(v *view, q *Query) func(g int32) bool {
	keep := make([]bool, total(v))
	done := ix.distilled(v)
	v.each(func(g int32, d *doc, src *source) {
		keep[g] = !done[g] && matchesOptions(d, src, q)
	})
	return func(g int32) bool { return keep[g] }
}

func total(v *view) int {
	last := len(v.segs) - 1
	return int(v.first[last]) + len(v.segs[last].docs)
}

func matchesOptions(d *doc, src *source, q *Query) bool {
	if d.private && !q.IncludePrivate {
		return false
	}
	if len(q.Types) > 0 && !hasType(q.Types, d) {
		return false
	}
	for _, want := range q.Tags {
		if !hasTag(d.tags, want) {
			return false
		}
	}
	if q.Since != "" || q.Until != "" {
		day := d.day
		if src.kind == srcTopic {
			day = time.Unix(d.modified, 0).In(time.Local).Format(time.DateOnly)
		}
		if q.Since != "" && day < q.Since || q.Until != "" && day > q.Until {
			return false
		}
	}
	return true
}

func hasType(types []typesx.Type, d *doc) bool {
	for _, t := range types {
		if t == d.typ {
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
	v.each(func(g int32, d *doc, src *source) {
		if src.kind == srcLog {
			entries = append(entries, dailylog.Entry{File: src.path, Hash: d.hash})
			ids = append(ids, g)
		}
	})
	if len(entries) == 0 {
		return nil
	}
	done, err := dream.Distilled(ix.dir.Path, entries)
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
