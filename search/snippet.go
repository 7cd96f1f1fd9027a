package search

import (
	"strings"
	"unicode/utf8"
)

// SnippetRunes is the longest snippet a hit carries.
const SnippetRunes = 120

// dropMarkup removes markup that only costs a snippet room: emphasis
// and code marks. (A strings.Replacer would cost every process at start.)
func dropMarkup(s string) string {
	if !strings.ContainsAny(s, "*_`") {
		return s
	}
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, "__", "")
	return strings.ReplaceAll(s, "`", "")
}

// cleanText flattens markdown for a snippet: one line, emphasis and code
// marks dropped, heading and list markers gone.
func cleanText(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "#>")
		line = strings.TrimSpace(line)
		for _, bullet := range []string{"- ", "* ", "+ "} {
			line = strings.TrimPrefix(line, bullet)
		}
		if line == "" || line == "---" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.Join(strings.Fields(dropMarkup(line)), " "))
	}
	return b.String()
}

type span struct{ start, end int }

// snippet returns the passage of text, at most width runes, that holds
// the most of the query's words, with each match in **bold**; "" when
// none of them is in text.
func snippet(text string, pq *parsed, width int) string {
	text = cleanText(text)
	spans := matchSpans(text, pq)
	if len(spans) == 0 {
		return ""
	}
	start, end := window(text, spans, width)
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	at := start
	for _, sp := range spans {
		if sp.start < start || sp.end > end {
			continue
		}
		b.WriteString(text[at:sp.start])
		b.WriteString("**" + text[sp.start:sp.end] + "**")
		at = sp.end
	}
	b.WriteString(text[at:end])
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// matchSpans finds the query's words in text, merged where only a
// connector separates them (api-latency is one mark).
func matchSpans(text string, pq *parsed) []span {
	var spans []span
	newTokenizer().each(text, 0, func(w word) {
		if !pq.marks(w) {
			return
		}
		if n := len(spans); n > 0 && w.start <= spans[n-1].end+1 && !strings.ContainsRune(text[spans[n-1].end:max(w.start, spans[n-1].end)], ' ') {
			spans[n-1].start = min(spans[n-1].start, w.start)
			spans[n-1].end = max(spans[n-1].end, w.end)
			return
		}
		spans = append(spans, span{w.start, w.end})
	})
	return spans
}

// marks reports whether a word of a text is one the query looks for.
func (pq *parsed) marks(w word) bool {
	if pq.terms[w.term] {
		return true
	}
	for _, p := range pq.prefixes {
		if strings.HasPrefix(w.folded, p) {
			return true
		}
	}
	return false
}

// window picks the byte range of at most width runes, cut at spaces,
// that covers the most matches, starting a little before the first.
func window(text string, spans []span, width int) (int, int) {
	best, bestN := 0, 0
	for i := range spans {
		n := 0
		for j := i; j < len(spans) && runes(text[spans[i].start:spans[j].end]) <= width-20; j++ {
			n++
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	start := spans[best].start
	// A little context before the first match, from a word start.
	for k := 0; k < 30 && start > 0; k++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	if start > 0 {
		if sp := strings.IndexByte(text[start:spans[best].start], ' '); sp >= 0 {
			start += sp + 1
		} else {
			start = spans[best].start
		}
	}
	end := start
	for n := 0; end < len(text) && n < width; n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	if end < len(text) {
		if sp := strings.LastIndexByte(text[start:end], ' '); sp > 0 {
			end = start + sp
		}
	}
	return start, end
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// TrimSnippet cuts a snippet to at most n runes at a word boundary,
// keeping its **marks** balanced and ending it with … when it cut.
func TrimSnippet(s string, n int) string {
	if runes(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	cut := 0
	for k := 0; k < n-1; k++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > n/2 {
		cut = sp
	}
	out := strings.TrimRight(s[:cut], "*")
	if strings.Count(out, "**")%2 == 1 {
		i := strings.LastIndex(out, "**")
		out = out[:i] + out[i+2:]
	}
	return strings.TrimRight(out, " ") + "…"
}
