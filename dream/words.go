package dream

import (
	"strings"
)

// squash normalises whitespace for exact-duplicate checks.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// paragraphs splits a body into its blank-line separated paragraphs,
// trimmed; code fences keep their blank lines inside one paragraph.
func paragraphs(body string) []string {
	var out []string
	var cur []string
	fence := false
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if t == "" && !fence {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRight(line, " \t\r"))
	}
	flush()
	return out
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// short is s on one line, cut to n runes, for reports.
func short(s string, n int) string {
	s = squash(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}
