package index

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/typesx"
)

// Meta is what Sort, Rebuild and Fit know of a topic file.
type Meta struct {
	Entry    Entry
	Type     typesx.Type // "" means Entry.Type()
	Modified time.Time
}

func (m Meta) typ() typesx.Type {
	if m.Type != "" {
		return m.Type
	}
	return m.Entry.Type()
}

// Sort orders metas the way memdir lists them: user, feedback, reference,
// then project newest first, then unknown types; within a type by title
// (case-insensitive), then file. An overflow pointer comes last in its type.
func Sort(metas []Meta) {
	slices.SortStableFunc(metas, compareMeta)
}

func compareMeta(a, b Meta) int {
	if c := cmp.Compare(a.typ().Rank(), b.typ().Rank()); c != 0 {
		return c
	}
	_, ap := IsOverflowFile(a.Entry.File)
	_, bp := IsOverflowFile(b.Entry.File)
	if ap != bp {
		if ap {
			return 1
		}
		return -1
	}
	if a.typ() == typesx.Project {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
	}
	if c := compareFold(a.Entry.Title, b.Entry.Title); c != 0 {
		return c
	}
	return cmp.Compare(a.Entry.File, b.Entry.File)
}

// compareFold compares a and b ignoring case, without allocating.
func compareFold(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if c := cmp.Compare(unicode.ToLower(ra), unicode.ToLower(rb)); c != 0 {
			return c
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

// Rebuild makes a fresh index from old and metas: every line of old that is
// not an entry stays in place, old entries are dropped, and every meta gets
// exactly one line (the first meta wins for a file named twice). Entries go
// in Sort order, one group per type: where old's entries of that type were,
// else as Upsert would place a new entry (under a heading naming the type,
// after the previous type's group), else where old's first entry was, else
// at the end. old may be nil.
func Rebuild(old *Index, metas []Meta) *Index {
	sorted := dedupe(metas)
	Sort(sorted)
	types := make(map[string]typesx.Type, len(sorted))
	for _, m := range sorted {
		types[m.Entry.File] = m.typ()
	}
	typeOf := func(e Entry) typesx.Type {
		if t, ok := types[e.File]; ok {
			return t
		}
		return e.Type()
	}
	ix, anchors, first := stripEntries(old, typeOf)
	for len(sorted) > 0 {
		t := sorted[0].typ()
		n := 1
		for n < len(sorted) && sorted[n].typ() == t {
			n++
		}
		group := make([]Entry, n)
		for i, m := range sorted[:n] {
			group[i] = m.Entry
		}
		p, ok := placement{pos: anchors[t]}, false
		if _, ok = anchors[t]; !ok {
			p = ix.place(t, typeOf, first)
		}
		before := len(ix.Lines)
		ix.insert(p, group)
		shift := func(at int) int {
			if at >= p.pos {
				return at + len(ix.Lines) - before
			}
			return at
		}
		first = shift(first)
		for k, at := range anchors {
			anchors[k] = shift(at)
		}
		sorted = sorted[n:]
	}
	ix.renumber()
	return ix
}

// stripEntries copies the lines of old that are not entries and tells
// where old's first entry, and its first entry of each type, were.
func stripEntries(old *Index, typeOf func(Entry) typesx.Type) (ix *Index, anchors map[typesx.Type]int, first int) {
	ix = &Index{}
	anchors = map[typesx.Type]int{}
	first = -1
	if old == nil {
		return ix, anchors, first
	}
	ix.crlf = old.crlf
	for _, l := range old.Lines {
		if l.Entry == nil {
			ix.Lines = append(ix.Lines, l)
			continue
		}
		if first < 0 {
			first = len(ix.Lines)
		}
		if _, ok := anchors[typeOf(*l.Entry)]; !ok {
			anchors[typeOf(*l.Entry)] = len(ix.Lines)
		}
	}
	return ix, anchors, first
}

func dedupe(metas []Meta) []Meta {
	seen := make(map[string]bool, len(metas))
	out := make([]Meta, 0, len(metas))
	for _, m := range metas {
		if !seen[m.Entry.File] {
			seen[m.Entry.File] = true
			out = append(out, m)
		}
	}
	return out
}

// Fit rebuilds the index from old and metas so that it stays within
// WarnRatio of both caps without losing an entry. First every hook that
// makes its line longer than MaxLineLen is shortened at a word boundary;
// then, while the index is too big, the entries last in Sort order (oldest
// project news first) move to per-type overflow lists, and the main index
// gets one pointer entry per overflowed type to MEMORY-<type>.md (see
// RenderOverflow). Metas for overflow files themselves are ignored. If the
// lines that are not entries alone exceed the budget, every entry moves to
// overflow and the result is still over.
func Fit(old *Index, metas []Meta, caps Caps) (*Index, map[typesx.Type][]Entry) {
	caps = caps.orDefault()
	lineBudget, byteBudget := caps.Lines*7/10, caps.Bytes*7/10
	var sorted []Meta
	for _, m := range dedupe(metas) {
		if _, ok := IsOverflowFile(m.Entry.File); ok {
			continue
		}
		m.Entry = shortenEntry(clean(m.Entry))
		sorted = append(sorted, m)
	}
	Sort(sorted)
	build := func(k int) (*Index, map[typesx.Type][]Entry) {
		main := slices.Clone(sorted[:k])
		overflow := map[typesx.Type][]Entry{}
		for _, m := range sorted[k:] {
			overflow[m.typ()] = append(overflow[m.typ()], m.Entry)
		}
		for t, es := range overflow {
			main = append(main, Meta{Entry: pointerEntry(t, len(es)), Type: t})
		}
		return Rebuild(old, main), overflow
	}
	fits := func(k int) bool {
		b, _ := build(k)
		p := Measure(b.Bytes(), caps)
		return p.Lines <= lineBudget && p.Bytes <= byteBudget
	}
	if fits(len(sorted)) {
		return build(len(sorted))
	}
	// The size grows with k, so the largest k that fits is one below the
	// first that does not.
	return build(searchLast(len(sorted), fits))
}

// searchLast returns the largest k in [0, n] with ok(k), assuming ok holds
// up to some point and not after; 0 if none.
func searchLast(n int, ok func(int) bool) int {
	lo, hi := 0, n // ok(lo) is assumed, the answer is in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// shortenEntry cuts a hook that makes its line longer than MaxLineLen at a
// word boundary and ends it with "…"; a hook that cannot keep a word goes.
func shortenEntry(e Entry) Entry {
	if utf8.RuneCountInString(FormatEntry(e)) <= MaxLineLen {
		return e
	}
	room := MaxLineLen - utf8.RuneCountInString(FormatEntry(Entry{Title: e.Title, File: e.File})) - utf8.RuneCountInString(" — ") - 1
	runes := []rune(e.Hook)
	if room < 1 {
		e.Hook = ""
		return e
	}
	cutAt := room
	for i := room; i > 0; i-- {
		if runes[i] == ' ' {
			cutAt = i
			break
		}
	}
	e.Hook = strings.TrimRight(string(runes[:cutAt]), " ,;:.-—–") + "…"
	return e
}

// OverflowFile returns the name of the overflow file for type t.
func OverflowFile(t typesx.Type) string { return "MEMORY-" + string(t) + ".md" }

// IsOverflowFile reports whether name is an overflow file, MEMORY-<type>.md,
// and for which type.
func IsOverflowFile(name string) (typesx.Type, bool) {
	rest, ok := strings.CutPrefix(name, "MEMORY-")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, ".md")
	if t := typesx.Type(rest); ok && t.Valid() {
		return t, true
	}
	return "", false
}

func pointerEntry(t typesx.Type, n int) Entry {
	return Entry{
		Title: fmt.Sprintf("More %s memories", t),
		File:  OverflowFile(t),
		Hook:  fmt.Sprintf("%d more %s topics, read this file for the full list", n, t),
	}
}

// RenderOverflow renders the overflow file for type t: a "# More <type>
// memories" heading and one line per entry.
func RenderOverflow(t typesx.Type, entries []Entry) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# More %s memories\n\n", t)
	for _, e := range entries {
		b.WriteString(FormatEntry(e))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
