package memsync

import (
	"slices"
	"strings"

	"github.com/memdir/memdir/index"
)

// mergeIndex merges three versions of MEMORY.md (or an overflow index)
// as a union of entries keyed by file: an entry added on either side is
// kept, one removed on one side and untouched on the other is removed,
// one changed on one side only takes the change, and one changed on both
// keeps the local line. Lines that are not entries (headings, notes) are
// the local file's, with those the remote added (a line the base had and
// the local file dropped stays dropped). What the remote adds goes after
// the line it follows there that the local file holds too. One pass over
// each version, with maps by file: linear in the size of the indexes.
func mergeIndex(base, local, remote []byte) []byte {
	bi, li, ri := index.Parse(base), index.Parse(local), index.Parse(remote)
	b, r := linesByFile(bi), linesByFile(ri)
	baseProse := proseSet(bi)
	out := make([]index.Line, 0, len(li.Lines)+len(ri.Lines))
	before := missingLines(li, ri, func(l index.Line) bool {
		if l.Entry == nil {
			return !baseProse[l.Raw]
		}
		bv, inB := b[l.Entry.File]
		return !inB || *bv.Entry != *l.Entry // not removed here, untouched there
	})
	for _, ll := range li.Lines {
		if e := ll.Entry; e != nil {
			rv, inR := r[e.File]
			bv, inB := b[e.File]
			switch {
			case inB && !inR && *bv.Entry == *e:
				ll.Raw = "\x00" // removed there, untouched here
			case inB && inR && *bv.Entry == *e && *rv.Entry != *e:
				ll = rv // changed there only
			}
		}
		out = append(out, ll)
	}
	li.Lines = out
	withLines(li, before)
	li.Lines = slices.DeleteFunc(li.Lines, func(l index.Line) bool { return l.Raw == "\x00" })
	return li.Bytes()
}

// missingLines finds the lines of from that to lacks (entries by file,
// other lines by text, blank lines never) and that want accepts, each
// keyed by the index in to of the line it comes before in from (len(to)
// when none follows), so that they keep their place among the lines
// both hold and come after what to added there.
func missingLines(to, from *index.Index, want func(index.Line) bool) map[int][]index.Line {
	files, prose := map[string]int{}, map[string]int{}
	for i, l := range to.Lines {
		if l.Entry != nil {
			if _, ok := files[l.Entry.File]; !ok {
				files[l.Entry.File] = i
			}
		} else if _, ok := prose[l.Raw]; !ok {
			prose[l.Raw] = i
		}
	}
	at := func(l index.Line) (int, bool) {
		if l.Entry != nil {
			i, ok := files[l.Entry.File]
			return i, ok
		}
		i, ok := prose[l.Raw]
		return i, ok
	}
	// The next shared line of each line of from, found walking back.
	next := make([]int, len(from.Lines))
	anchor := len(to.Lines)
	for j := len(from.Lines) - 1; j >= 0; j-- {
		next[j] = anchor
		if i, ok := at(from.Lines[j]); ok && strings.TrimSpace(from.Lines[j].Raw) != "" {
			anchor = i
		}
	}
	before := map[int][]index.Line{}
	added := map[string]bool{}
	for j, l := range from.Lines {
		if _, here := at(l); here || strings.TrimSpace(l.Raw) == "" {
			continue
		}
		key := l.Raw
		if l.Entry != nil {
			key = "\x00" + l.Entry.File
		}
		if added[key] || !want(l) {
			continue
		}
		added[key] = true
		before[next[j]] = append(before[next[j]], l)
	}
	return before
}

// withLines is ix with the lines before[i] put before its line i (and
// before[len] at its end).
func withLines(ix *index.Index, before map[int][]index.Line) {
	out := make([]index.Line, 0, len(ix.Lines)+len(before))
	for i, l := range ix.Lines {
		out = append(append(out, before[i]...), l)
	}
	ix.Lines = append(out, before[len(ix.Lines)]...)
}

// linesByFile maps an index's entry lines by file; the first line for a
// file wins.
func linesByFile(ix *index.Index) map[string]index.Line {
	m := make(map[string]index.Line, len(ix.Lines))
	for _, l := range ix.Lines {
		if l.Entry != nil {
			if _, ok := m[l.Entry.File]; !ok {
				m[l.Entry.File] = l
			}
		}
	}
	return m
}

// proseSet is the set of an index's lines that are not entries.
func proseSet(ix *index.Index) map[string]bool {
	m := map[string]bool{}
	for _, l := range ix.Lines {
		if l.Entry == nil {
			m[l.Raw] = true
		}
	}
	return m
}

// byFile maps an index's entries by file; the first line for a file wins.
func byFile(data []byte) map[string]index.Entry {
	m := map[string]index.Entry{}
	for _, e := range index.Parse(data).Entries() {
		if _, ok := m[e.File]; !ok {
			m[e.File] = e
		}
	}
	return m
}

// dropEntries removes, in one pass, every entry line whose file drop
// names; it reports whether any went.
func dropEntries(ix *index.Index, drop func(file string) bool) bool {
	out := ix.Lines[:0]
	for _, l := range ix.Lines {
		if l.Entry == nil || !drop(l.Entry.File) {
			out = append(out, l)
		}
	}
	dropped := len(out) < len(ix.Lines)
	clear(ix.Lines[len(out):])
	ix.Lines = out
	return dropped
}
