package secrets

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// pattern is one row of the detection table.
type pattern struct {
	kind string
	// re is compiled on the row's first anchor hit that passes its gate:
	// most rows never see one in a given text, and a process then never
	// pays for compiling them.
	re *lazyRegexp
	// perLine says each line holding an anchor is searched on its own
	// (the kept rules, whose regexps were written for gitleaks' fragments);
	// otherwise the lines of nearby hits are searched together.
	perLine bool
	// anchors are literals of which every match contains at least one; the
	// regexp only runs on lines holding an anchor.
	anchors []string
	// fold says the anchors are lowercase and searched case-insensitively.
	fold bool
	// gate, when set, must accept an anchor hit for its line to be searched.
	gate gate
	// span is the submatch group that is reported; 0 is the whole match.
	span int
	// firstGroup reports the first group that matched instead of span.
	firstGroup bool
	// extraLines is how many lines past its anchor's line a match may reach.
	extraLines int
	// atWord says every match starts at the start of the key word holding
	// its anchor (password=..., DB_PASSWORD: ...): the regexp then runs once
	// per hit, anchored there, instead of over the whole line.
	atWord bool
	// anchored is re anchored at the start, for atWord patterns.
	anchored *lazyRegexp
	// valid, when set, gets the submatches (0 is the whole match) and
	// rejects placeholders and look-alikes.
	valid func(g []string) bool
}

// window is a byte range of the text, starting at a line start.
type window struct{ start, end int }

// gate is a cheap check of the text around an anchor hit at [i,j) that
// rules out most hits in prose before any regexp runs.
type gate func(s string, i, j int) bool

// detectors compiles the table and the automaton that finds the anchors
// of every pattern in one pass. It runs on first use, so that commands
// that never scan do not pay for the regexps at start-up.
var detectors = sync.OnceValues(buildDetectors)

// buildDetectors lists the hand-made rows and the kept rules and builds
// the automaton; no regexp is compiled yet.
func buildDetectors() ([]pattern, *anchorSet) {
	table := buildTable()
	for i := range table {
		if p := &table[i]; p.atWord {
			p.anchored = lazyRE(`^(?:` + p.re.src + `)`)
		}
	}
	table = append(table, extPatterns()...)
	return table, newAnchorSet(table)
}

// regexp returns the pattern's regexp, compiling it on first use.
func (p *pattern) regexp() *regexp.Regexp { return p.re.get() }

// rowWindows are the windows of one row of the table.
type rowWindows struct {
	prio int
	ws   []window
}

// windows returns, for each row with an anchor hit that passes its gate,
// the sorted line ranges of text to search, merged unless the row
// searches each line or each key on its own; rows in table order.
func windows(text string) []rowWindows {
	table, anchors := detectors()
	var rows []rowWindows
	var at map[int]int // prio -> index in rows, made on the first hit
	anchors.find(text, func(h hit) {
		p := &table[h.prio]
		k, seen := at[h.prio]
		var ws []window
		if seen {
			ws = rows[k].ws
		}
		n := len(ws)
		if n > 0 && h.start < ws[n-1].end && p.extraLines == 0 && !p.atWord {
			return // same line as the previous hit
		}
		if p.gate != nil && !p.gate(text, h.start, h.end) {
			return
		}
		w := p.window(text, h)
		if n > 0 && w == ws[n-1] {
			return
		}
		if !seen {
			if at == nil {
				at = make(map[int]int)
			}
			at[h.prio] = len(rows)
			rows = append(rows, rowWindows{prio: h.prio})
			k = len(rows) - 1
		}
		rows[k].ws = append(ws, w)
	})
	sort.Slice(rows, func(i, j int) bool { return rows[i].prio < rows[j].prio })
	for i := range rows {
		if p := &table[rows[i].prio]; !p.atWord && !p.perLine {
			rows[i].ws = merge(rows[i].ws)
		}
	}
	return rows
}

// window returns the range p's regexp searches for hit h: the line (and
// extra lines) around it, or for atWord patterns the key word holding the
// anchor up to the end of the line.
func (p *pattern) window(text string, h hit) window {
	if p.atWord {
		i := h.start
		for i > 0 && keySet[text[i-1]] {
			i--
		}
		end := min(len(text), h.end+maxAssignLen)
		return window{start: i, end: lineEnd(text[:end], h.end)}
	}
	w := window{start: strings.LastIndexByte(text[:h.start], '\n') + 1, end: lineEnd(text, h.end)}
	for n := 0; n < p.extraLines && w.end < len(text); n++ {
		w.end = lineEnd(text, w.end+1)
	}
	return w
}

// lineEnd returns the offset of the first newline at or after i, or len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// merge sorts ws and joins the windows that overlap or touch.
func merge(ws []window) []window {
	if len(ws) < 2 {
		return ws
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].start < ws[j].start })
	out := ws[:1]
	for _, w := range ws[1:] {
		last := &out[len(out)-1]
		if w.start <= last.end+1 {
			last.end = max(last.end, w.end)
			continue
		}
		out = append(out, w)
	}
	return out
}

// appendMatches appends to ms the valid matches of p inside window w.
func (p *pattern) appendMatches(ms []match, text string, w window, prio int) []match {
	sub := text[w.start:w.end]
	var locs [][]int
	if p.atWord {
		locs = p.matchInWord(sub)
	} else {
		locs = p.regexp().FindAllStringSubmatchIndex(sub, -1)
	}
	for _, loc := range locs {
		span := p.span
		if p.firstGroup {
			span = firstGroup(loc)
		}
		s, e := loc[2*span], loc[2*span+1]
		if s < 0 || e <= s {
			continue
		}
		if p.valid != nil && !p.valid(groups(sub, loc)) {
			continue
		}
		ms = append(ms, match{start: w.start + s, end: w.start + e, prio: prio})
	}
	return ms
}

// maxAssignLen bounds how far past its anchor an atWord match may reach, so
// that a long line full of hits is not searched to its end once per hit.
const maxAssignLen = 1024

// maxWordTries bounds the start positions matchInWord tries in one word.
const maxWordTries = 16

// matchInWord runs the anchored regexp at the start of the key word that
// begins sub and after each '.' or '-' in it, where an unanchored search
// could also start a key (x-.db.password=...), and returns the first match.
func (p *pattern) matchInWord(sub string) [][]int {
	tries := 0
	for off := 0; off < len(sub) && keySet[sub[off]] && tries < maxWordTries; off++ {
		if off > 0 && sub[off-1] != '.' && sub[off-1] != '-' {
			continue
		}
		tries++
		if loc := p.anchored.get().FindStringSubmatchIndex(sub[off:]); loc != nil {
			for i := range loc {
				if loc[i] >= 0 {
					loc[i] += off
				}
			}
			return [][]int{loc}
		}
	}
	return nil
}

// firstGroup returns the first submatch group that matched something, or
// 0 for the whole match.
func firstGroup(loc []int) int {
	for i := 1; i < len(loc)/2; i++ {
		if loc[2*i] >= 0 && loc[2*i+1] > loc[2*i] {
			return i
		}
	}
	return 0
}

// groups turns submatch indexes into strings; unmatched groups are "".
func groups(s string, loc []int) []string {
	g := make([]string, len(loc)/2)
	for i := range g {
		if loc[2*i] >= 0 {
			g[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return g
}
