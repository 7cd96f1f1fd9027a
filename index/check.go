package index

import (
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"
)

// The kinds of Problem Check reports.
const (
	KindDangling  = "dangling"  // an entry whose file does not exist
	KindOrphan    = "orphan"    // a topic or overflow file no index line points to
	KindDuplicate = "duplicate" // a second line for one file
	KindLongLine  = "long-line" // a line over MaxLineLen runes
	KindNotEntry  = "not-entry" // notes or code that are not entries
	KindOverCap   = "over-cap"  // the index is over a load cap
)

// The levels of Problem: errors break what agents see, warnings waste or
// hide it, notes are information only.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	LevelNote    = "note"
)

// IndexName is the index file's name.
const IndexName = "MEMORY.md"

// Problem is one finding of Check.
type Problem struct {
	Kind  string
	Level string
	// Source is the index file the problem is in: IndexName or an
	// overflow file name.
	Source string
	// Line is the 1-based line in Source, 0 when the problem has no line.
	Line int
	// File is the topic or overflow file concerned, if any.
	File    string
	Message string
}

// Disk is what Check compares the index with.
type Disk struct {
	// Topics are the base names of the topic files present.
	Topics []string
	// Overflow maps the name of each overflow file present
	// (MEMORY-<type>.md) to its content.
	Overflow map[string][]byte
}

// Check finds what is wrong with index data: entries pointing to missing
// files, topic files no index line points to (a topic listed in an overflow
// file counts as indexed, and a pointer to an overflow file present is not
// dangling), duplicate lines, lines over MaxLineLen runes, runs of lines
// that are not entries (one note per run), and an index over a cap.
func Check(data []byte, disk Disk, caps Caps) []Problem {
	exists := make(map[string]bool, len(disk.Topics)+len(disk.Overflow))
	for _, t := range disk.Topics {
		exists[t] = true
	}
	for name := range disk.Overflow {
		exists[name] = true
	}
	indexed := map[string]bool{}
	ix := Parse(data)
	probs := checkLines(ix, IndexName, exists, indexed, true)
	for _, name := range slices.Sorted(maps.Keys(disk.Overflow)) {
		probs = append(probs, checkLines(Parse(disk.Overflow[name]), name, exists, indexed, false)...)
	}
	files := append(slices.Clone(disk.Topics), slices.Sorted(maps.Keys(disk.Overflow))...)
	slices.Sort(files)
	for _, f := range slices.Compact(files) {
		if f == IndexName || indexed[f] {
			continue
		}
		probs = append(probs, Problem{Kind: KindOrphan, Level: LevelWarning, File: f,
			Message: fmt.Sprintf("%s has no line in the index, so agents will not find it; run `memdir index --rebuild`", f)})
	}
	if p := Measure(data, caps); p.OverCap {
		probs = append(probs, Problem{Kind: KindOverCap, Level: LevelError, Source: IndexName, Message: p.FullMessage()})
	}
	return probs
}

// checkLines checks the lines of one index file and marks the files its
// entries point to as indexed.
func checkLines(ix *Index, source string, exists, indexed map[string]bool, notes bool) []Problem {
	var probs []Problem
	add := func(kind, level string, l Line, file, format string, args ...any) {
		probs = append(probs, Problem{Kind: kind, Level: level, Source: source, Line: l.No, File: file,
			Message: fmt.Sprintf("%s line %d: ", source, l.No) + fmt.Sprintf(format, args...)})
	}
	raws := make([]string, len(ix.Lines))
	for i, l := range ix.Lines {
		raws[i] = l.Raw
	}
	kinds, _, _ := classify(raws)
	first := map[string]int{}
	for i, l := range ix.Lines {
		if n := utf8.RuneCountInString(l.Raw); n > MaxLineLen {
			add(KindLongLine, LevelWarning, l, "", "%d characters (limit %d); shorten it", n, MaxLineLen)
		}
		if notes && (kinds[i] == kindText || kinds[i] == kindCode) && (i == 0 || kinds[i-1] != kinds[i]) {
			n := 1
			for i+n < len(kinds) && kinds[i+n] == kinds[i] {
				n++
			}
			add(KindNotEntry, LevelNote, l, "", "%s not index entries; they are kept, and they count against the load caps",
				plural(n, "line is", "lines are"))
		}
		if l.Entry == nil {
			continue
		}
		f := l.Entry.File
		if !exists[f] {
			add(KindDangling, LevelError, l, f, "%s does not exist; remove the line or restore the file", f)
		}
		if at, ok := first[f]; ok {
			add(KindDuplicate, LevelError, l, f, "another line for %s (first on line %d); remove one", f, at)
			continue
		}
		first[f] = l.No
		indexed[f] = true
	}
	return probs
}
