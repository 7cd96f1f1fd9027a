package index

import (
	"slices"

	"github.com/memdir/memdir/typesx"
)

// Upsert adds or replaces the entry for e.File and reports whether it was
// added. A hook that would make the line longer than MaxLineLen characters
// (Claude Code asks for index lines "under ~150 characters", and Check
// warns past it) is cut at a word and ends in "…", as Fit cuts it; the
// topic keeps its whole description. An existing line is replaced in place (re-rendered only if the
// entry changed); any further lines for the same file are removed. A new
// line goes, in order of preference: after the last entry of its type;
// under a heading that names its type ("## Feedback", "# User memories");
// after the last entry of the closest earlier type in typesx.Types; before
// the first entry of the closest later type; at the end, before trailing
// blank lines. The title and hook are cleaned as FormatEntry does.
func (ix *Index) Upsert(e Entry) (added bool) {
	e = shortenEntry(clean(e))
	found := false
	out := ix.Lines[:0]
	for _, l := range ix.Lines {
		if l.Entry != nil && l.Entry.File == e.File {
			if found {
				continue
			}
			found = true
			if *l.Entry != e {
				ne := e
				l = Line{Raw: FormatEntry(e), Entry: &ne}
			}
		}
		out = append(out, l)
	}
	clear(ix.Lines[len(out):])
	ix.Lines = out
	if !found {
		ix.insert(ix.place(e.Type(), Entry.Type, -1), []Entry{e})
	}
	ix.renumber()
	return !found
}

// KeepTitle returns e as ix would write it: with the title of the line ix
// already has for e.File, if it has one, and its hook cut as Upsert cuts
// it. The title of an existing line is the person's (Claude Code names a
// topic with a kebab-case slug and titles its index line in prose), so only
// a new line takes the topic's name, and a line whose hook did not change
// keeps its bytes.
func (ix *Index) KeepTitle(e Entry) Entry {
	if old, ok := ix.Lookup(e.File); ok && old.Title != "" {
		e.Title = old.Title
	}
	return shortenEntry(clean(e))
}

// placement is where new entry lines go: before Lines[pos], with a blank
// line before or after them to keep markdown blocks apart.
type placement struct {
	pos           int
	before, after bool
}

// place finds where a new entry of type t goes. typeOf tells the type of
// existing entries. If no entry or heading guides it, the entry goes at
// fallback, or at the end when fallback is negative.
func (ix *Index) place(t typesx.Type, typeOf func(Entry) typesx.Type, fallback int) placement {
	last := func(t typesx.Type) int {
		for i := len(ix.Lines) - 1; i >= 0; i-- {
			if e := ix.Lines[i].Entry; e != nil && typeOf(*e) == t {
				return i
			}
		}
		return -1
	}
	if i := last(t); i >= 0 {
		// The usual case, decided without classifying every line again.
		return placement{pos: i + 1}
	}
	raws := make([]string, len(ix.Lines))
	for i, l := range ix.Lines {
		raws[i] = l.Raw
	}
	kinds, _, open := classify(raws)
	for i, k := range kinds {
		if k == kindHeading && headingNames(raws[i], t) {
			return underHeading(kinds, i, open)
		}
	}
	r := t.Rank()
	for k := min(r, len(typesx.Types)) - 1; k >= 0; k-- {
		if i := last(typesx.Types[k]); i >= 0 {
			return placement{pos: i + 1}
		}
	}
	for k := r + 1; k < len(typesx.Types); k++ {
		for i, l := range ix.Lines {
			if l.Entry != nil && typeOf(*l.Entry) == typesx.Types[k] {
				return placement{pos: i}
			}
		}
	}
	if fallback >= 0 {
		return placement{pos: min(fallback, open)}
	}
	return atEnd(kinds, open)
}

// underHeading places entries at the end of the section that heading h
// starts, after its last non-blank line.
func underHeading(kinds []lineKind, h, open int) placement {
	n := len(kinds)
	end := h + 1
	for end < n && kinds[end] != kindHeading {
		end++
	}
	last := h
	for i := h + 1; i < end; i++ {
		if kinds[i] != kindBlank {
			last = i
		}
	}
	switch {
	case last >= open:
		return atEnd(kinds, open)
	case last > h:
		return placement{pos: last + 1, before: kinds[last] != kindEntry}
	case h+1 < n && kinds[h+1] == kindBlank:
		pos := h + 2
		return placement{pos: pos, after: pos < n && kinds[pos] != kindBlank}
	}
	return placement{pos: h + 1}
}

// atEnd places entries after the last non-blank line that is not inside an
// unclosed comment or code block.
func atEnd(kinds []lineKind, open int) placement {
	pos := open
	for pos > 0 && kinds[pos-1] == kindBlank {
		pos--
	}
	p := placement{pos: pos, before: pos > 0 && kinds[pos-1] != kindEntry}
	if open < len(kinds) {
		p.after = true
	}
	return p
}

// insert puts entry lines at p, with the blank lines p asks for.
func (ix *Index) insert(p placement, entries []Entry) {
	lines := make([]Line, 0, len(entries)+2)
	if p.before {
		lines = append(lines, Line{})
	}
	for _, e := range entries {
		e := clean(e)
		lines = append(lines, Line{Raw: FormatEntry(e), Entry: &e})
	}
	if p.after {
		lines = append(lines, Line{})
	}
	ix.Lines = slices.Insert(ix.Lines, p.pos, lines...)
}

// WouldOverflow reports whether upserting e would leave entries of the
// index past a load cap, out of an agent's sight, without changing ix. An
// index over a cap with hand-written lines alone is not: fitting it would
// only hide entries behind pointers (as Rebuild decides).
func (ix *Index) WouldOverflow(e Entry, caps Caps) bool {
	trial := &Index{Lines: slices.Clone(ix.Lines), crlf: ix.crlf}
	trial.Upsert(e)
	p := MeasureIndex(trial, trial.Bytes(), caps)
	return p.OverCap && len(p.Invisible) > 0
}

// Pointer is the line Fit gives MEMORY.md for the overflow index of type
// t when it lists n entries.
func Pointer(t typesx.Type, n int) Entry { return pointerEntry(t, n) }
