// Package secrets finds credentials in text so that they never enter memory.
//
// Scan looks for well-known token formats (cloud keys, forge tokens, chat
// tokens, API keys, JWTs, PEM private keys) and for credential-shaped
// assignments such as password=hunter2 or a URL with user:pass@ in it. It
// favours precision over recall: ordinary prose about passwords and tokens,
// placeholders and references to variables do not count.
//
// What counts as a placeholder, and is therefore not reported:
//   - a value that starts with $, %, {, <, [, (, !, @, # or * (shell and
//     template variables, <password>, [redacted], YAML tags, masks);
//   - a value made of one repeated character (xxxxxx, ******), or containing
//     xxx, ***, ..., "example", "placeholder", "redacted", "changeme",
//     "your", "dummy", "sample" or "fake";
//   - a value that is only decimal digits (limits, ports, counts), a word
//     such as password, secret, token, null, true or required, or a quoted
//     value of three or more words (a sentence, not a password);
//   - a value shorter than 6 bytes in an assignment (3 in a URL);
//   - an unquoted assignment value made only of letters, '_', '.' and '-',
//     which is almost always code (password = cfg.Password) or prose
//     (password: must be long); password=letmein is missed on purpose;
//   - a URL whose password equals its user name (postgres://postgres:postgres@).
//
// A private key block is reported at its BEGIN line, and only when key
// material follows it (a header alone, as in documentation, is not a key).
// Overlapping matches are reported once, as the most specific kind.
//
// Speed: one Aho-Corasick pass finds the literal anchors of every pattern
// (prefixes such as ghp_, key words such as password); a cheap gate then
// checks the bytes around each hit (is an = or : coming, are enough token
// bytes following) and only then does a regular expression run, on that
// line or, for key=value patterns, anchored at the key. 40 KB of prose takes
// about 0.15 ms.
package secrets

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Finding is one credential-looking string.
type Finding struct {
	// Kind is a human name for what was found, e.g. "AWS access key ID",
	// "GitHub token", "private key block".
	Kind string
	// Line is the 1-based line of the match's first byte in the scanned text.
	Line int
	// Column is the 1-based byte column of the match's first byte.
	Column int
	// Redacted is the match with all but its first 4 characters replaced by
	// '*', showing at most 8 stars, so it is safe to print.
	Redacted string
}

// shownRunes is how many leading characters of a match Redacted keeps, and
// maxStars how many stars at most stand for the rest.
const (
	shownRunes = 4
	maxStars   = 8
)

// match is a finding before its line and column are known.
type match struct {
	start, end int
	prio       int // index of the pattern in the table; lower wins
	// kind, when set, replaces the table row's kind: what runMatches
	// finds has no row.
	kind string
}

// kindIn returns the match's kind.
func (m match) kindIn(table []pattern) string {
	if m.kind != "" {
		return m.kind
	}
	return table[m.prio].kind
}

// Scan returns the credentials found in text, in order of appearance. When
// two patterns match overlapping spans, the more specific one (a GitHub
// token rather than the token= assignment around it) is the only one
// reported.
func Scan(text string) []Finding {
	ms := scanAll(text, 0)
	if len(ms) == 0 {
		return nil
	}
	table, _ := detectors()
	out := make([]Finding, 0, len(ms))
	line, lineStart, pos := 1, 0, 0
	for _, m := range ms {
		for {
			i := strings.IndexByte(text[pos:m.start], '\n')
			if i < 0 {
				break
			}
			line++
			pos += i + 1
			lineStart = pos
		}
		out = append(out, Finding{
			Kind:     m.kindIn(table),
			Line:     line,
			Column:   m.start - lineStart + 1,
			Redacted: redact(text[m.start:m.end]),
		})
	}
	return out
}

// Kinds returns every Kind that Scan can report, in priority order. A
// credential found base64-encoded is reported as "base64-encoded " and the
// kind found in the decoded text.
func Kinds() []string {
	var kinds []string
	table, _ := detectors()
	for _, p := range table {
		if !slices.Contains(kinds, p.kind) {
			kinds = append(kinds, p.kind)
		}
	}
	return append(kinds, kindKeyBody)
}

// scanAll returns every accepted match, sorted by start offset: the table's
// (see scan), what runMatches finds in base64 runs, and both again in the
// text without its invisible characters, mapped back onto the text.
func scanAll(text string, depth int) []match {
	table, _ := detectors()
	cands := tableMatches(text)
	cands = append(cands, runMatches(text, len(table), depth)...)
	if stripped, offsets, ok := stripInvisible(text); ok {
		for _, m := range scanAll(stripped, depth) {
			m.start, m.end = offsets[m.start], offsets[m.end-1]+1
			cands = append(cands, m)
		}
	}
	return resolve(cands)
}

// scan returns the accepted matches of the table alone, sorted by start
// offset.
func scan(text string) []match {
	return resolve(tableMatches(text))
}

// tableMatches returns the candidate matches of every table row, before
// overlaps are resolved.
func tableMatches(text string) []match {
	var cands []match
	table, _ := detectors()
	for prio, ws := range windows(text) {
		for _, w := range ws {
			cands = table[prio].appendMatches(cands, text, w, prio)
		}
	}
	return cands
}

// resolve drops candidates that overlap a candidate of a higher-priority
// pattern (or an earlier one of the same pattern) and sorts the rest by
// start.
func resolve(cands []match) []match {
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].prio != cands[j].prio {
			return cands[i].prio < cands[j].prio
		}
		return cands[i].start < cands[j].start
	})
	var kept []match // sorted by start, pairwise disjoint
	for _, c := range cands {
		i := sort.Search(len(kept), func(i int) bool { return kept[i].end > c.start })
		if i < len(kept) && kept[i].start < c.end {
			continue
		}
		kept = append(kept, match{})
		copy(kept[i+1:], kept[i:])
		kept[i] = c
	}
	return kept
}

// redact keeps the first shownRunes characters of s and stars the rest.
func redact(s string) string {
	i, n := 0, 0
	for i < len(s) && n < shownRunes {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	rest := utf8.RuneCountInString(s[i:])
	return s[:i] + strings.Repeat("*", min(rest, maxStars))
}

// lowerASCII lowers ASCII letters only, so byte offsets in the result are
// the offsets in s.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
