// Package index owns the MEMORY.md format: an index of one line per topic
// file, mixed with headings, blank lines and notes a person wrote.
//
// It parses the file tolerantly, upserts and removes the entry lines memdir
// owns while keeping every other line verbatim, computes the load view an
// agent gets (at most 200 lines and 25,000 bytes, with a warning naming what
// was cut), measures write-time pressure, checks the index against the topic
// files on disk, and rebuilds or fits the index under its caps, moving the
// oldest entries into per-type overflow files (MEMORY-<type>.md).
//
// The package does no file I/O: the store reads and writes the files and
// calls it.
//
// Line endings: a file whose first line ends in CRLF is rendered with CRLF
// throughout; any other file with LF. Untouched lines of a consistently
// terminated file come back byte for byte. Trailing blank lines are dropped
// on render, so a rendered index ends with exactly one line break.
package index

import (
	"path"
	"strings"

	"github.com/memdir/memdir/typesx"
)

// The load caps and the longest line the checks accept.
const (
	// MaxLines is the most lines of MEMORY.md an agent loads.
	MaxLines = 200
	// MaxBytes is the most bytes of MEMORY.md an agent loads.
	MaxBytes = 25000
	// MaxLineLen is the longest line, in runes, the checks accept.
	MaxLineLen = 150
)

// WarnRatio is the share of either cap above which a write warns.
const WarnRatio = 0.7

// Caps are the load limits of the index.
type Caps struct {
	Lines, Bytes int
}

// DefaultCaps are the limits an agent applies at session start.
var DefaultCaps = Caps{Lines: MaxLines, Bytes: MaxBytes}

// orDefault fills a zero or negative limit with its default.
func (c Caps) orDefault() Caps {
	if c.Lines <= 0 {
		c.Lines = MaxLines
	}
	if c.Bytes <= 0 {
		c.Bytes = MaxBytes
	}
	return c
}

// Entry is one index line: "- [Title](file.md) — hook".
type Entry struct {
	Title string
	File  string
	Hook  string
}

// Type returns the content type named by the file name's "<type>_" prefix,
// or the type of an overflow file (MEMORY-<type>.md); "" if neither.
func (e Entry) Type() typesx.Type {
	base := path.Base(e.File)
	if t, ok := IsOverflowFile(base); ok {
		return t
	}
	if i := strings.IndexByte(base, '_'); i > 0 {
		if t := typesx.Type(base[:i]); t.Valid() {
			return t
		}
	}
	return ""
}

// Line is one line of MEMORY.md. Entry is nil for lines memdir does not own
// (headings, blank lines, notes, comments, code).
type Line struct {
	No    int
	Raw   string
	Entry *Entry
}

// Index is a parsed MEMORY.md.
type Index struct {
	Lines []Line
	crlf  bool
}

// Parse reads MEMORY.md. It never fails: whatever is not an entry line is
// kept as it is.
func Parse(data []byte) *Index {
	ix := &Index{}
	if len(data) == 0 {
		return ix
	}
	s := string(data)
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		ix.crlf = true
	}
	raws := strings.Split(s, "\n")
	if raws[len(raws)-1] == "" {
		raws = raws[:len(raws)-1]
	}
	if ix.crlf {
		for i, r := range raws {
			raws[i] = strings.TrimSuffix(r, "\r")
		}
	}
	kinds, entries, _ := classify(raws)
	ix.Lines = make([]Line, len(raws))
	for i, r := range raws {
		ix.Lines[i] = Line{No: i + 1, Raw: r}
		if kinds[i] == kindEntry {
			ix.Lines[i].Entry = &entries[i]
		}
	}
	return ix
}

// Entries returns every entry line's entry, in file order.
func (ix *Index) Entries() []Entry {
	var out []Entry
	for _, l := range ix.Lines {
		if l.Entry != nil {
			out = append(out, *l.Entry)
		}
	}
	return out
}

// Lookup returns the first entry for file.
func (ix *Index) Lookup(file string) (Entry, bool) {
	for _, l := range ix.Lines {
		if l.Entry != nil && l.Entry.File == file {
			return *l.Entry, true
		}
	}
	return Entry{}, false
}

// Remove deletes every line for file and reports whether there was one.
func (ix *Index) Remove(file string) bool {
	out := ix.Lines[:0]
	removed := false
	for _, l := range ix.Lines {
		if l.Entry != nil && l.Entry.File == file {
			removed = true
			continue
		}
		out = append(out, l)
	}
	clear(ix.Lines[len(out):])
	ix.Lines = out
	ix.renumber()
	return removed
}

// Bytes renders the index: every line as it was unless memdir changed it,
// trailing blank lines dropped, ending in one line break. An index with no
// non-blank line renders empty.
func (ix *Index) Bytes() []byte {
	n := len(ix.Lines)
	for n > 0 && isBlank(ix.Lines[n-1].Raw) {
		n--
	}
	if n == 0 {
		return nil
	}
	eol := ix.eol()
	size := 0
	for _, l := range ix.Lines[:n] {
		size += len(l.Raw) + len(eol)
	}
	b := make([]byte, 0, size)
	for _, l := range ix.Lines[:n] {
		b = append(b, l.Raw...)
		b = append(b, eol...)
	}
	return b
}

func (ix *Index) eol() string {
	if ix.crlf {
		return "\r\n"
	}
	return "\n"
}

func (ix *Index) renumber() {
	for i := range ix.Lines {
		ix.Lines[i].No = i + 1
	}
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
