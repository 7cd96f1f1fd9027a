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
	kept := cut(data, caps)
	v := View{
		Lines:       countLines(data),
		Bytes:       len(data),
		LoadedLines: countLines(kept),
		LoadedBytes: len(kept),
		Truncated:   len(kept) < len(data),
	}
	for _, l := range Parse(data).Lines {
		if l.Entry == nil {
			continue
		}
		if !v.Truncated || l.No <= v.LoadedLines {
			v.Loaded = append(v.Loaded, *l.Entry)
		} else {
			v.Dropped = append(v.Dropped, *l.Entry)
		}
	}
	v.Text = string(kept)
	if v.Truncated {
		v.Warning = v.warning(caps)
		if len(kept) > 0 {
			v.Text += "\n"
		}
		v.Text += v.Warning + "\n"
	}
	return v
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

func (v View) warning(caps Caps) string {
	var b strings.Builder
	fmt.Fprintf(&b, "WARNING: MEMORY.md is %s lines and %s bytes; only the first %s lines and %s bytes were loaded (limits: %s lines, %s bytes). ",
		comma(v.Lines), comma(v.Bytes), comma(v.LoadedLines), comma(v.LoadedBytes), comma(caps.Lines), comma(caps.Bytes))
	if len(v.Dropped) == 0 {
		b.WriteString("Every entry was loaded; only other lines were cut. ")
	} else {
		fmt.Fprintf(&b, "Not loaded: %s: %s. ", plural(len(v.Dropped), "entry", "entries"), names(v.Dropped, len(v.Dropped)))
	}
	b.WriteString("Fix: " + FixHint + ".")
	return b.String()
}

// names lists up to max entries as "Title (file.md)", then "and N more".
func names(es []Entry, max int) string {
	parts := make([]string, 0, min(len(es), max)+1)
	for i, e := range es {
		if i == max {
			parts = append(parts, "and "+comma(len(es)-max)+" more")
			break
		}
		parts = append(parts, e.Title+" ("+e.File+")")
	}
	return strings.Join(parts, ", ")
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
	caps = caps.orDefault()
	p := Pressure{Lines: countLines(data), Bytes: len(data), Caps: caps}
	p.OverWarn = float64(p.Lines) > WarnRatio*float64(caps.Lines) || float64(p.Bytes) > WarnRatio*float64(caps.Bytes)
	p.OverCap = p.Lines > caps.Lines || p.Bytes > caps.Bytes
	if p.OverCap {
		p.Invisible = Load(data, caps).Dropped
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
