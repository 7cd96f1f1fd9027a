package index

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/memdir/memdir/frontmatter"
)

// FixHint tells a person how to bring the index back under its caps.
const FixHint = "run `memdir index --fit`, or shorten hooks and move detail into topic files"

// View is what an agent loads of MEMORY.md at session start.
type View struct {
	// Text is exactly what Claude Code loads: the index past its
	// frontmatter, trimmed, cut to the caps, followed by a blank line and
	// Warning when anything was cut, with line breaks made "\n" and
	// control and format characters dropped. It has no final newline.
	Text string
	// Lines and Bytes measure the trimmed index as Claude Code does: lines
	// split at "\n", size in UTF-16 code units.
	Lines, Bytes int
	// LoadedLines and LoadedBytes measure the kept part the same way.
	LoadedLines, LoadedBytes int
	// Loaded and Dropped are the entries inside and outside the kept part;
	// an entry whose line was cut part-way is dropped.
	Loaded, Dropped []Entry
	// Truncated reports whether anything was cut.
	Truncated bool
	// Warning is Claude Code's one-line warning, "" when nothing was cut.
	// It quotes the first line cut (at most 80 characters) but never lists
	// entries: DroppedNote does, for standard error.
	Warning string
}

// Load cuts the index to caps exactly as Claude Code 2.1.332's memory
// loader does (golden files under testdata/claude, from the client's own
// code and from the client run): drop a byte order mark and frontmatter
// (frontmatter.StripClaude); trim the text (JavaScript's
// String.prototype.trim); if it has more than caps.Lines lines keep the
// first caps.Lines; if what is kept is still longer than caps.Bytes UTF-16
// code units, cut at the last "\n" at or before that index (or at the
// index itself when there is none); then append "\n\n" and the warning,
// which says how many lines were cut from which line on and quotes that
// line. Last, as Claude does before it sends the text, line breaks become
// "\n" and control and format characters are dropped (Scrub). A zero
// limit means the default.
//
// Before measuring, HTML comment blocks are dropped as Claude does
// (stripComments). Not followed: Claude escapes its own reserved tags in
// the text.
func Load(data []byte, caps Caps) View {
	return LoadIndex(Parse(data), data, caps)
}

// LoadIndex is Load for data that ix holds parsed (ix is Parse(data)), for
// a caller that parsed it already: the session-start context parses
// MEMORY.md once, for the private check and the load.
func LoadIndex(ix *Index, data []byte, caps Caps) View {
	caps = caps.orDefault()
	m := measureText(string(data), caps)
	v := View{Lines: m.lines, Bytes: m.units, Truncated: m.truncated,
		LoadedBytes: utf16Len(m.kept)}
	if m.kept != "" {
		v.LoadedLines = countSplit(m.kept)
	}
	v.Loaded, v.Dropped = m.sortEntries(ix.Lines)
	if !m.truncated {
		v.Text = TrimJS(Scrub(m.kept))
		return v
	}
	warning := "> WARNING: " + IndexName + " is " + m.reason(caps) + ". Only part of it was loaded: " +
		m.cutNote() + ". Keep index entries to one line under ~200 chars; move detail into topic files."
	v.Warning = Scrub(warning)
	v.Text = TrimJS(Scrub(m.kept + "\n\n" + warning))
	return v
}

// DroppedNote says which entries a cut left out, for standard error: at
// most max of them by name, then "and N more"; "" when none was.
func (v View) DroppedNote(max int) string {
	if len(v.Dropped) == 0 {
		return ""
	}
	return fmt.Sprintf("%s not loaded (over the load caps): %s; %s",
		plural(len(v.Dropped), "entry", "entries"), names(v.Dropped, max), FixHint)
}

// measured is an index measured against caps.
type measured struct {
	text  string // the index past its frontmatter, trimmed
	lead  int    // lines stripped or trimmed away before it
	lines int    // lines of text, split at "\n"
	units int    // UTF-16 code units of text
	kept  string // what is loaded, before the warning
	// origin maps line k of text to its line in the raw index, when
	// comment blocks were stripped; nil when text's lines are raw's
	// from lead on.
	origin    []int
	half      bool // the size cut split a surrogate pair: its high half was kept, and is dropped
	truncated bool
}

func measureText(raw string, caps Caps) measured {
	body := frontmatter.StripClaude(raw)
	stripped, origin := stripComments(body)
	text := TrimJS(stripped)
	m := measured{text: text, lines: countSplit(text), units: utf16Len(text)}
	if text == "" {
		m.lines = 0
	}
	if origin == nil {
		m.lead = strings.Count(raw[:len(raw)-len(strings.TrimLeftFunc(body, isJSSpace))], "\n")
	} else {
		// Lines of the measured text come from lines of raw through the
		// comment stripping: map them, past the frontmatter.
		m.lead = strings.Count(raw[:len(raw)-len(body)], "\n")
		skip := strings.Count(stripped[:len(stripped)-len(strings.TrimLeftFunc(stripped, isJSSpace))], "\n")
		m.origin = make([]int, 0, len(origin)-skip)
		for _, o := range origin[skip:] {
			m.origin = append(m.origin, m.lead+o)
		}
	}
	overLines, overSize := m.lines > caps.Lines, m.units > caps.Bytes
	m.kept = text
	if !overLines && !overSize {
		return m
	}
	m.truncated = true
	if overLines {
		m.kept = firstLines(text, caps.Lines)
	}
	if utf16Len(m.kept) > caps.Bytes {
		m.kept, m.half = cutUnits(m.kept, caps.Bytes)
	}
	return m
}

// reason is the part of the warning between "MEMORY.md is" and the period.
func (m measured) reason(caps Caps) string {
	overLines, overSize := m.lines > caps.Lines, m.units > caps.Bytes
	switch {
	case overSize && !overLines:
		return fmt.Sprintf("%s (limit: %s) — index entries are too long", FormatSize(m.units), FormatSize(caps.Bytes))
	case overLines && !overSize:
		return fmt.Sprintf("%d lines (limit: %d)", m.lines, caps.Lines)
	}
	return fmt.Sprintf("%d lines and %s", m.lines, FormatSize(m.units))
}

// sortEntries splits the index's entries into those whose whole line is in
// the kept text and the rest. lines are the measured text's lines in order
// (line i+1 is lines[i]), parsed from it or rendered into it.
func (m measured) sortEntries(lines []Line) (loaded, dropped []Entry) {
	// Lines wholly kept: every line before the last "\n" of kept, and the
	// last one too when nothing was cut.
	full := strings.Count(m.kept, "\n")
	if !m.truncated && m.kept != "" {
		full++
	}
	if m.truncated && !m.half && !strings.HasSuffix(m.kept, "\n") && strings.HasPrefix(m.text[len(m.kept):], "\n") {
		full++ // cut exactly at a line's end
	}
	last := m.lead + full
	loaded = make([]Entry, 0, min(last, len(lines)))
	if m.truncated {
		dropped = make([]Entry, 0, max(len(lines)-last, 0))
	}
	var shown map[int]bool // raw lines loaded, when comments were stripped
	if m.origin != nil {
		shown = make(map[int]bool, full)
		for _, o := range m.origin[:min(full, len(m.origin))] {
			shown[o] = true
		}
	}
	for i, l := range lines {
		if l.Entry == nil || i < m.lead {
			continue // not an entry, or in the frontmatter Claude skips
		}
		if shown != nil && shown[i] || shown == nil && i+1 <= last {
			loaded = append(loaded, *l.Entry)
		} else {
			dropped = append(dropped, *l.Entry)
		}
	}
	if len(loaded) == 0 {
		loaded = nil
	}
	if len(dropped) == 0 {
		dropped = nil
	}
	return loaded, dropped
}

// TrimJS trims what JavaScript's String.prototype.trim trims (white space
// and line terminators, the byte order mark among them), as Claude Code
// trims MEMORY.md and every instruction file.
func TrimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// countSplit counts the pieces "\n" splits s into, as JavaScript's
// s.split("\n").length does: an empty text is one line.
func countSplit(s string) int { return strings.Count(s, "\n") + 1 }

// firstLines keeps the first n lines of s, without the "\n" after them.
func firstLines(s string, n int) string {
	off := 0
	for i := 0; i < n; i++ {
		j := strings.IndexByte(s[off:], '\n')
		if j < 0 {
			return s
		}
		if i == n-1 {
			return s[:off+j]
		}
		off += j + 1
	}
	return s
}

// utf16Len is the length of s in UTF-16 code units (JavaScript's length);
// an invalid byte counts as the one unit of U+FFFD it decodes to.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		// Eight ASCII bytes at a time are eight code units: an index is
		// mostly ASCII, and decoding it rune by rune was a third of
		// measuring it.
		if i+8 <= len(s) && (uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56)&0x8080808080808080 == 0 {
			n += 8
			i += 8
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n++
		if r >= 0x10000 {
			n++
		}
		i += size
	}
	return n
}

// cutUnits cuts s as JavaScript's s.slice(0, c) does with c the last "\n"
// at or before UTF-16 index limit, or limit when there is none (c > 0 is
// required, so a text starting with "\n" is cut at limit). A cut inside a
// surrogate pair keeps its high half, which JavaScript holds as a lone
// surrogate: the cut text is then s up to the pair, and half is true.
func cutUnits(s string, limit int) (cut string, half bool) {
	units, at := 0, len(s)
	lastNL := -1
	for i, r := range s {
		if units > limit {
			break
		}
		if r == '\n' {
			lastNL = i
		}
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > limit && at == len(s) {
			at, half = i, units < limit
		}
		units += w
	}
	if lastNL > 0 {
		return s[:lastNL], false
	}
	return s[:at], half
}

// FormatSize formats a size as Claude Code does: "N bytes" under 1,024,
// else KB (or MB) with one decimal and a trailing ".0" dropped. The decimal
// is rounded as JavaScript's toFixed rounds n/1024: half away from zero.
func FormatSize(n int) string {
	if n < 1024 {
		return strconv.Itoa(n) + " bytes"
	}
	unit, div := "KB", 1024
	if n >= 1024*1024 {
		unit, div = "MB", 1024*1024
	}
	tenths := (n*10 + div/2) / div
	s := strconv.Itoa(tenths/10) + "." + strconv.Itoa(tenths%10)
	return strings.TrimSuffix(s, ".0") + unit
}

// names lists up to max entries as "Title (file.md)", then "and N more".
func names(es []Entry, max int) string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == max {
			b.WriteString("and " + comma(len(es)-max) + " more")
			break
		}
		b.WriteString(e.Title + " (" + e.File + ")")
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return comma(n) + " " + many
}

// comma formats n with thousands separators: 25000 -> "25,000".
func comma(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Pressure is how close the index is to its caps after a write, measured
// as Load measures: lines and UTF-16 code units of the trimmed text.
type Pressure struct {
	Lines, Bytes int
	Caps         Caps
	// OverWarn is set above WarnRatio of either cap, OverCap above either.
	OverWarn, OverCap bool
	// Invisible lists the entries Load would drop.
	Invisible []Entry
}

// Measure reports the pressure of index data against caps; a zero limit
// means the default.
func Measure(data []byte, caps Caps) Pressure {
	return measure(data, caps, func() *Index { return Parse(data) })
}

// MeasureIndex is Measure for data that ix has just rendered (data is
// ix.Bytes()). It gives the same result; it exists so a caller holding the
// parsed index says so, and parsing again is only needed over a cap.
func MeasureIndex(ix *Index, data []byte, caps Caps) Pressure {
	return measure(data, caps, func() *Index { return ix })
}

// measure measures data; parsed gives its lines (parsing it, or the
// index that rendered it), needed only over a cap.
func measure(data []byte, caps Caps, parsed func() *Index) Pressure {
	caps = caps.orDefault()
	// No copy of data (2 MB at 10,000 entries, measured after every add):
	// nothing measured here outlives the call.
	m := measureText(unsafe.String(unsafe.SliceData(data), len(data)), caps)
	p := Pressure{Lines: m.lines, Bytes: m.units, Caps: caps}
	p.OverWarn = float64(p.Lines) > WarnRatio*float64(caps.Lines) || float64(p.Bytes) > WarnRatio*float64(caps.Bytes)
	p.OverCap = m.truncated
	if p.OverCap {
		_, p.Invisible = m.sortEntries(parsed().Lines)
	}
	return p
}

// Message is the write-time feedback: "" when the index is within
// WarnRatio of both caps, else one line naming both figures, at most ten
// invisible entries, and what to do.
func (p Pressure) Message() string { return p.message(10) }

// FullMessage is Message naming every invisible entry, for checks.
func (p Pressure) FullMessage() string { return p.message(len(p.Invisible)) }

func (p Pressure) message(max int) string {
	if !p.OverWarn && !p.OverCap {
		return ""
	}
	p.Caps = p.Caps.orDefault()
	head := fmt.Sprintf("MEMORY.md is at %s/%s lines (%d%%) and %s/%s characters (%d%%)",
		comma(p.Lines), comma(p.Caps.Lines), percent(p.Lines, p.Caps.Lines),
		comma(p.Bytes), comma(p.Caps.Bytes), percent(p.Bytes, p.Caps.Bytes))
	if !p.OverCap {
		return head + "; over 70%: run `memdir index --fit`"
	}
	if len(p.Invisible) == 0 {
		return head + "; over the cap: its last lines are not loaded; " + FixHint
	}
	return fmt.Sprintf("%s; over the cap: %s now invisible to agents: %s; %s", head,
		plural(len(p.Invisible), "entry is", "entries are"), names(p.Invisible, max), FixHint)
}

func percent(n, of int) int {
	return int(math.Round(100 * float64(n) / float64(of)))
}
