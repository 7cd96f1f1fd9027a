package dream

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// stopwords carry no meaning of their own for matching facts. Negations
// (no, not, never) are not stopwords: they flip a fact.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but in on at to for of with by from into onto as so
		is are was were be been being am it its it's this that these those there here
		we they i you he she our their my your his her them us me
		if then than also just do does did has have had will would can could should may might shall
		all any some each per via about up out over under again very really too`) {
		m[w] = true
	}
	return m
}()

// rawWords splits s into lowercase runs of letters and digits.
func rawWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// stem strips a plural "s" so that "mocks" and "mock" are one word.
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") {
		return w[:len(w)-1]
	}
	return w
}

// wordSet is the set of content words of a text: lowercase, stemmed, no
// stopwords.
type wordSet map[string]bool

func contentWords(s string) wordSet {
	set := wordSet{}
	for _, w := range rawWords(s) {
		if !stopwords[w] {
			set[stem(w)] = true
		}
	}
	return set
}

// jaccard is shared words over all words, 0 when both are empty.
func jaccard(a, b wordSet) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	shared := 0
	for w := range a {
		if b[w] {
			shared++
		}
	}
	return float64(shared) / float64(len(a)+len(b)-shared)
}

// sameNumbers reports whether a and b hold the same words with digits:
// "API v1 limits" and "API v2 limits" are different facts.
func sameNumbers(a, b wordSet) bool {
	for w := range a {
		if hasDigit(w) && !b[w] {
			return false
		}
	}
	for w := range b {
		if hasDigit(w) && !a[w] {
			return false
		}
	}
	return true
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// Thresholds of the built-in distiller.
const (
	// topicThreshold is the content-word Jaccard of an entry's name and
	// first sentence with a topic's name and description at which the
	// entry belongs to that topic.
	topicThreshold = 0.5
	// nearDupThreshold is the content-word Jaccard of two facts at which
	// the newer one is a near duplicate, dropped.
	nearDupThreshold = 0.6
	// minDupWords is the fewest content words a fact needs before it can
	// be judged a near duplicate: short facts differ by one word.
	minDupWords = 3
)

// nearDuplicate reports whether fact b says what fact a says.
func nearDuplicate(a, b wordSet) bool {
	if len(a) < minDupWords || len(b) < minDupWords {
		return false
	}
	return jaccard(a, b) >= nearDupThreshold && sameNumbers(a, b)
}

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

// lazyRegexp compiles a pattern on first use, so that commands that never
// dream do not pay for compiling the distiller's patterns at start-up.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
