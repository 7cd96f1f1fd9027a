package index

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FixHint tells a person how to bring the index back under its caps.
const FixHint = "run `memdir index --fit`, or shorten hooks and move detail into topic files"

// View is what an agent loads of MEMORY.md at session start.
type View struct {
	// Text is the loaded part of the index, exactly as kept, followed by a
	// blank line and the warning when anything was cut.
	Text string
	// Lines and Bytes are the totals of the full index.
	Lines, Bytes int
	// LoadedLines and LoadedBytes measure the kept part.
	LoadedLines, LoadedBytes int
	// Loaded and Dropped are the entries inside and outside the kept part;
	// an entry whose line was cut part-way is dropped.
	Loaded, Dropped []Entry
	// Truncated reports whether anything was cut.
	Truncated bool
	// Warning is "" when nothing was cut.
	Warning string
}

// Load cuts the index to caps the way an agent loads it: the first
// caps.Lines lines, then, if still over caps.Bytes, up to the last line
// break that keeps the text under caps.Bytes. A zero limit means the
// default.
func Load(data []byte, caps Caps) View {
	caps = caps.orDefault()
	v, kept := split(data, caps)
	if !v.Truncated {
		v.Text = string(kept)
		return v
	}
	// Text is the kept part, a blank line and the warning; the warning of
	// a 10,000-entry index names every dropped entry, so it is written
	// once, into Text, and Warning shares its bytes.
	var b strings.Builder
	b.Grow(len(kept) + 400 + namesLen(v.Dropped))
	b.Write(kept)
	if len(kept) > 0 {
		b.WriteByte('\n')
	}
	start := b.Len()
	v.writeWarning(&b, caps)
	end := b.Len()
	b.WriteByte('\n')
	v.Text = b.String()
	v.Warning = v.Text[start:end]
	return v
}

// split measures data against caps, sorts its entries into loaded and
// dropped and returns the kept bytes, leaving Text and Warning to Load:
// Measure needs only the dropped entries, and the warning of a
// 10,000-entry index is long.
func split(data []byte, caps Caps) (View, []byte) {
	kept := cut(data, caps)
	v := View{
		Lines:       countLines(data),
		Bytes:       len(data),
		LoadedLines: countLines(kept),
		LoadedBytes: len(kept),
		Truncated:   len(kept) < len(data),
	}
	ix := Parse(data)
	v.Loaded = make([]Entry, 0, min(len(ix.Lines), v.LoadedLines))
	if v.Truncated {
		v.Dropped = make([]Entry, 0, len(ix.Lines)-len(v.Loaded))
	}
	for _, l := range ix.Lines {
		if l.Entry == nil {
			continue
		}
		if !v.Truncated || l.No <= v.LoadedLines {
			v.Loaded = append(v.Loaded, *l.Entry)
		} else {
			v.Dropped = append(v.Dropped, *l.Entry)
		}
	}
	if len(v.Loaded) == 0 {
		v.Loaded = nil // as callers and the JSON output have always seen it
	}
	if len(v.Dropped) == 0 {
		v.Dropped = nil
	}
	return v, kept
}

// cut returns the part of data an agent loads. When it cuts, the result is
// empty or ends in a line break.
func cut(data []byte, caps Caps) []byte {
	kept := data
	n := 0
	for i, c := range kept {
		if c == '\n' {
			n++
			if n == caps.Lines {
				kept = kept[:i+1]
				break
			}
		}
	}
	if len(kept) > caps.Bytes {
		i := bytes.LastIndexByte(kept[:caps.Bytes-1], '\n')
		kept = kept[:i+1]
	}
	return kept
}

// countLines counts lines the way an editor shows them: a final line
// without a line break still counts.
func countLines(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// writeWarning writes the line that follows a cut index: both figures,
// every entry that was not loaded, and the fix.
func (v View) writeWarning(b *strings.Builder, caps Caps) {
	fmt.Fprintf(b, "WARNING: MEMORY.md is %s lines and %s bytes; only the first %s lines and %s bytes were loaded (limits: %s lines, %s bytes). ",
		comma(v.Lines), comma(v.Bytes), comma(v.LoadedLines), comma(v.LoadedBytes), comma(caps.Lines), comma(caps.Bytes))
	if len(v.Dropped) == 0 {
		b.WriteString("Every entry was loaded; only other lines were cut. ")
	} else {
		b.WriteString("Not loaded: " + plural(len(v.Dropped), "entry", "entries") + ": ")
		writeNames(b, v.Dropped, len(v.Dropped))
		b.WriteString(". ")
	}
	b.WriteString("Fix: " + FixHint + ".")
}

// names lists up to max entries as "Title (file.md)", then "and N more".
func names(es []Entry, max int) string {
	var b strings.Builder
	writeNames(&b, es, max)
	return b.String()
}

func writeNames(b *strings.Builder, es []Entry, max int) {
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == max {
			b.WriteString("and " + comma(len(es)-max) + " more")
			break
		}
		b.WriteString(e.Title)
		b.WriteString(" (")
		b.WriteString(e.File)
		b.WriteString(")")
	}
}

// namesLen is the length of writeNames's text for every entry of es.
func namesLen(es []Entry) int {
	n := 0
	for _, e := range es {
		n += len(e.Title) + len(e.File) + 5
	}
	return n
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

// Pressure is how close the index is to its caps after a write.
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
// ix.Bytes()): it takes the entries that are now invisible from ix rather
// than parsing data again, which matters to an add into a large index.
func MeasureIndex(ix *Index, data []byte, caps Caps) Pressure {
	return measure(data, caps, func() *Index { return ix })
}

// measure parses data, through parsed, only when it is over a cap.
func measure(data []byte, caps Caps, parsed func() *Index) Pressure {
	caps = caps.orDefault()
	p := Pressure{Lines: countLines(data), Bytes: len(data), Caps: caps}
	p.OverWarn = float64(p.Lines) > WarnRatio*float64(caps.Lines) || float64(p.Bytes) > WarnRatio*float64(caps.Bytes)
	p.OverCap = p.Lines > caps.Lines || p.Bytes > caps.Bytes
	if !p.OverCap {
		return p
	}
	loaded := countLines(cut(data, caps))
	for _, l := range parsed().Lines {
		if l.Entry != nil && l.No > loaded {
			p.Invisible = append(p.Invisible, *l.Entry)
		}
	}
	return p
}

// Message is the write-time feedback: "" when the index is within
// WarnRatio of both caps, else one line naming both figures and what to do.
func (p Pressure) Message() string {
	if !p.OverWarn && !p.OverCap {
		return ""
	}
	p.Caps = p.Caps.orDefault()
	head := fmt.Sprintf("MEMORY.md is at %s/%s lines (%d%%) and %s/%s bytes (%d%%)",
		comma(p.Lines), comma(p.Caps.Lines), percent(p.Lines, p.Caps.Lines),
		comma(p.Bytes), comma(p.Caps.Bytes), percent(p.Bytes, p.Caps.Bytes))
	if !p.OverCap {
		return head + "; over 70%: run `memdir index --fit`"
	}
	if len(p.Invisible) == 0 {
		return head + "; over the cap: its last lines are not loaded; " + FixHint
	}
	return fmt.Sprintf("%s; over the cap: %s now invisible to agents: %s; %s", head,
		plural(len(p.Invisible), "entry is", "entries are"), names(p.Invisible, 10), FixHint)
}

func percent(n, of int) int {
	return int(math.Round(100 * float64(n) / float64(of)))
}
