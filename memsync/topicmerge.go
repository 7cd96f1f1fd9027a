package memsync

import (
	"bytes"
	"slices"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// mergeTopic merges three versions of a topic file as a list of facts:
// the frontmatter by key (modified the later of the two, created the
// earlier) and the body by lines, where what both sides only added
// (lines, paragraphs, list items) at the same place is kept from both,
// in an order that does not depend on which side is which, a fact both
// added once. Changes to separate lines merge, even when adjacent. clean
// is false when both sides changed the same fact (one key, one line)
// differently; merged is then nil.
func mergeTopic(base, local, remote []byte) (merged []byte, clean bool) {
	switch {
	case bytes.Equal(local, remote):
		return local, true
	case bytes.Equal(base, local):
		return remote, true
	case bytes.Equal(base, remote):
		return local, true
	}
	bf, bb, okB := splitTopic(base)
	lf, lb, okL := splitTopic(local)
	rf, rb, okR := splitTopic(remote)
	if !okL || !okR || !okB && len(base) > 0 {
		out, ok := mergeLines(lines(string(base)), lines(string(local)), lines(string(remote)))
		return []byte(strings.Join(out, "")), ok
	}
	fm, ok := mergeFrontmatter(bf, lf, rf)
	if !ok {
		return nil, false
	}
	body, ok := mergeLines(lines(bb), lines(lb), lines(rb))
	if !ok {
		return nil, false
	}
	return []byte("---\n" + strings.Join(fm, "") + "---\n" + strings.Join(body, "")), true
}

// splitTopic splits a topic into its frontmatter's lines (between the
// --- lines) and its body; ok is false when it has no frontmatter.
func splitTopic(data []byte) (fm []string, body string, ok bool) {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		return nil, "", false
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		if head, ok = strings.CutSuffix(rest, "\n---"); !ok {
			return nil, "", false
		}
	}
	return lines(head + "\n"), body, true
}

// lines splits s into lines that keep their "\n"; a last line without
// one gets it, so that an append after it is an insertion, not a change.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	ls := strings.SplitAfter(s, "\n")
	return ls[:len(ls)-1]
}

// fmKey is one key of a frontmatter with its value's lines.
type fmKey struct{ name, text string }

// fmKeys groups frontmatter lines by top-level key: a line that starts a
// key, then its indented or list lines. ok is false for lines before the
// first key.
func fmKeys(ls []string) (keys []fmKey, ok bool) {
	for _, l := range ls {
		name, _, isKey := strings.Cut(l, ":")
		if isKey && l != "" && !strings.ContainsAny(l[:1], " \t-#") {
			keys = append(keys, fmKey{name: strings.TrimSpace(name), text: l})
			continue
		}
		if len(keys) == 0 {
			if strings.TrimSpace(l) == "" {
				continue
			}
			return nil, false
		}
		keys[len(keys)-1].text += l
	}
	return keys, true
}

// mergeFrontmatter merges three frontmatters key by key, in the local
// order, keys only the remote has after.
func mergeFrontmatter(base, local, remote []string) ([]string, bool) {
	b, okB := fmKeys(base)
	l, okL := fmKeys(local)
	r, okR := fmKeys(remote)
	if !okB || !okL || !okR {
		out, ok := mergeLines(base, local, remote)
		return out, ok
	}
	find := func(keys []fmKey, name string) (string, bool) {
		for _, k := range keys {
			if k.name == name {
				return k.text, true
			}
		}
		return "", false
	}
	var out []string
	seen := map[string]bool{}
	for _, k := range append(slices.Clone(l), r...) {
		if seen[k.name] {
			continue
		}
		seen[k.name] = true
		bv, inB := find(b, k.name)
		lv, inL := find(l, k.name)
		rv, inR := find(r, k.name)
		v, keep, ok := mergeKey(k.name, bv, lv, rv, inB, inL, inR)
		if !ok {
			return nil, false
		}
		if keep {
			out = append(out, v)
		}
	}
	return out, true
}

// mergeKey merges one frontmatter key; keep is false when the merge
// removes it.
func mergeKey(name, bv, lv, rv string, inB, inL, inR bool) (v string, keep, ok bool) {
	switch {
	case inL == inR && lv == rv:
		return lv, inL, true
	case inL == inB && lv == bv:
		return rv, inR, true
	case inR == inB && rv == bv:
		return lv, inL, true
	case inL && inR && (name == "modified" || name == "created"):
		// Both stamped: the later change, the earlier creation (RFC 3339
		// in UTC, as memdir stamps, sorts as text).
		later := strings.TrimSpace(lv) > strings.TrimSpace(rv)
		if later == (name == "modified") {
			return lv, true, true
		}
		return rv, true, true
	}
	return "", false, false
}

// chunk is one change a side made to the base: base[s:e] replaced by
// add (an insertion when s == e, a removal when add is empty).
type chunk struct {
	s, e  int
	add   []string
	local bool
}

// chunks lists, in base order, the changes side makes to base.
func chunks(base, side []string, local bool) []chunk {
	dmp := diffmatchpatch.New()
	a, b, table := dmp.DiffLinesToRunes(strings.Join(base, ""), strings.Join(side, ""))
	var out []chunk
	i := 0
	var cur *chunk
	for _, d := range dmp.DiffMainRunes(a, b, false) {
		ls := lines(dmp.DiffCharsToLines([]diffmatchpatch.Diff{d}, table)[0].Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			if cur != nil {
				out = append(out, *cur)
				cur = nil
			}
			i += len(ls)
		case diffmatchpatch.DiffDelete:
			if cur == nil {
				cur = &chunk{s: i, e: i, local: local}
			}
			i += len(ls)
			cur.e = i
		case diffmatchpatch.DiffInsert:
			if cur == nil {
				cur = &chunk{s: i, e: i, local: local}
			}
			cur.add = append(cur.add, ls...)
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// mergeLines merges two sides' changes to base by line. Changes to
// separate lines both apply; lines both sides inserted at one place are
// united (unite); lines both removed go; anything else where the two
// meet is a conflict (ok false).
func mergeLines(base, local, remote []string) (out []string, ok bool) {
	all := append(chunks(base, local, true), chunks(base, remote, false)...)
	slices.SortStableFunc(all, func(x, y chunk) int {
		if x.s != y.s {
			return x.s - y.s
		}
		return x.e - y.e
	})
	at := 0
	for i := 0; i < len(all); {
		g := []chunk{all[i]}
		gs, ge := all[i].s, all[i].e
		for i++; i < len(all); i++ {
			c := all[i]
			if c.s < ge || c.s == ge && c.s == c.e && gs == ge {
				g = append(g, c)
				ge = max(ge, c.e)
				continue
			}
			break
		}
		add, ok := resolve(g)
		if !ok {
			return nil, false
		}
		out = append(append(out, base[at:gs]...), add...)
		at = ge
	}
	return append(out, base[at:]...), true
}

// resolve merges a group of overlapping changes.
func resolve(g []chunk) ([]string, bool) {
	if len(g) == 1 {
		return g[0].add, true
	}
	removals := true
	for _, c := range g {
		removals = removals && len(c.add) == 0
	}
	switch {
	case removals:
		return nil, true
	case len(g) != 2:
		return nil, false
	case g[0].s == g[1].s && g[0].e == g[1].e && slices.Equal(g[0].add, g[1].add):
		return g[0].add, true
	case g[0].s == g[0].e && g[1].s == g[1].e:
		return unite(g[0].add, g[1].add), true
	}
	return nil, false
}

// unite is what two sides inserted at one place: the one that sorts
// first, then the other's lines it does not hold already (blank lines
// aside), so that both machines merging get the same text.
func unite(a, b []string) []string {
	if strings.Join(b, "") < strings.Join(a, "") {
		a, b = b, a
	}
	return uniteInOrder(a, b)
}

// uniteInOrder is a's lines, then b's lines a does not hold already
// (blank lines aside, never two in a row).
func uniteInOrder(a, b []string) []string {
	have := map[string]bool{}
	for _, l := range a {
		have[strings.TrimSpace(l)] = true
	}
	out := slices.Clone(a)
	for _, l := range b {
		t := strings.TrimSpace(l)
		if t != "" && have[t] {
			continue
		}
		if t == "" && (len(out) == 0 || strings.TrimSpace(out[len(out)-1]) == "") {
			continue
		}
		have[t] = true
		out = append(out, l)
	}
	return out
}
