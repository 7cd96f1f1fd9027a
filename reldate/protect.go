package reldate

import "strings"

// protected finds the spans Rewrite must not touch: fenced code blocks,
// inline code spans and URLs. The spans come out sorted by start.
func protected(text string) []span {
	if !strings.ContainsAny(text, "`~") && !strings.Contains(text, "://") && !strings.Contains(text, "www.") {
		return nil
	}
	var out []span
	for i, lineStart := 0, true; i < len(text); {
		if lineStart {
			lineStart = false
			if end, ok := fence(text, i); ok {
				out = append(out, span{i, end})
				i, lineStart = end, true
				continue
			}
		}
		switch c := text[i]; {
		case c == '\n':
			i++
			lineStart = true
		case c == '`':
			end := codeSpan(text, i)
			out = append(out, span{i, end})
			i = end
			lineStart = end > 0 && text[end-1] == '\n'
		case c == ':' && strings.HasPrefix(text[i:], "://"), c == 'w' && strings.HasPrefix(text[i:], "www."):
			s := i
			for c == ':' && s > 0 && isSchemeByte(text[s-1]) {
				s--
			}
			e := i
			for e < len(text) && !isSpace(text[e]) {
				e++
			}
			out = append(out, span{s, e})
			i = e
		default:
			i++
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isSchemeByte(c byte) bool { return isAlnum(c) || c == '+' || c == '-' || c == '.' }

// fence reports whether a code fence (three or more ` or ~, indented at
// most three spaces) opens the line at i, and where its block ends: after
// the closing fence line, or at the end of the text when it never closes.
func fence(text string, i int) (int, bool) {
	marker, n := fenceRun(text, i)
	if n < 3 {
		return 0, false
	}
	for k := lineEnd(text, i); k < len(text); {
		m, cn := fenceRun(text, k)
		next := lineEnd(text, k)
		if m == marker && cn >= n {
			return next, true
		}
		k = next
	}
	return len(text), true
}

// fenceRun returns the fence character and run length at line start i.
func fenceRun(text string, i int) (byte, int) {
	k := i
	for k < len(text) && k-i < 3 && text[k] == ' ' {
		k++
	}
	if k >= len(text) || (text[k] != '`' && text[k] != '~') {
		return 0, 0
	}
	c, s := text[k], k
	for k < len(text) && text[k] == c {
		k++
	}
	return c, k - s
}

// lineEnd returns the offset just past the line break of the line holding i.
func lineEnd(text string, i int) int {
	if nl := strings.IndexByte(text[i:], '\n'); nl >= 0 {
		return i + nl + 1
	}
	return len(text)
}

// codeSpan returns the end of the code span opened by the backtick run at
// i: after the next run of the same length within the paragraph, or, when
// there is none, the end of the line (an unclosed span is kept as code).
func codeSpan(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	limit := len(text)
	if p := strings.Index(text[i:], "\n\n"); p >= 0 {
		limit = i + p
	}
	for k := i + n; k < limit; {
		if text[k] != '`' {
			k++
			continue
		}
		m := 0
		for k+m < len(text) && text[k+m] == '`' {
			m++
		}
		if m == n {
			return k + m
		}
		k += m
	}
	if e := strings.IndexByte(text[i+n:], '\n'); e >= 0 {
		return i + n + e
	}
	return len(text)
}

// overlaps reports whether [s, e) overlaps a protected span. spans is sorted.
func overlaps(spans []span, s, e int) bool {
	for _, p := range spans {
		if p.s >= e {
			return false
		}
		if p.e > s {
			return true
		}
	}
	return false
}
