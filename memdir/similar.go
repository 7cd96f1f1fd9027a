package memdir

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/tokenize"
)

// Text similarity: the one measure memdir uses to tell whether two texts
// say the same thing. `memdir add` uses it to update a similar topic
// instead of adding a second one (SameMemory, on name and description);
// dream uses it to route a log entry to its topic (SameMemory) and to keep
// one fact once (SameFact, on the facts' text).
//
// A text becomes a set of terms: its words (package tokenize, the
// tokenizer search uses: case and diacritics folded, identifiers cut into
// their parts), without English
// stop words, with a few engineering abbreviations spelled out ("PRs" is
// "pull requests"), every negation ("not", "never", "don't", and "instead"
// and "rather", which say what not to do) one term "not", and each word
// stemmed as search stems it (tokenize.Stem, the Snowball English
// stemmer), so "mocks", "mocked" and "mocking" are one term.
// Words with digits stay whole: they are numbers, versions, dates.
//
// Two bags of terms are compared by what they share: over the smaller one
// (containment: a short restatement inside a longer fact still matches)
// and over the union (Jaccard: for names, where one word more makes another
// topic). Two texts conflict, and are never the same, when both hold
// numbers and the numbers differ ("API v1 limits", "API v2 limits"), when
// one is negated and the other is not ("always mock the network", "never
// mock the network"), or when they name different alternatives of a small
// set of contrasts ("public API", "internal API"; "staging", "production").

// Terms is the bag of content terms of a text: how often each occurs. A
// term a text repeats is what it is about ("runbooks ... docs/runbooks"),
// so counting repeats keeps apart facts that differ only in that term.
type Terms map[string]int

// Len is the number of terms in the bag, repeats counted.
func (t Terms) Len() int {
	n := 0
	for _, c := range t {
		n += c
	}
	return n
}

// Thresholds of the measure, on the scores Compare returns.
const (
	// SimilarThreshold is the Jaccard score of two names-plus-descriptions
	// at which they are the same memory.
	SimilarThreshold = 0.5
	// FactThreshold is the containment score at which two facts are the
	// same fact.
	FactThreshold = 0.7
	// minFactShared is the fewest terms two facts must share to be the
	// same fact: short facts differ by a word ("use tabs", "use spaces").
	minFactShared = 3
)

// Score is how much two bags of terms share.
type Score struct {
	Shared      int     // terms in both, repeats counted as often as both have them
	Containment float64 // Shared over the size of the smaller bag
	Jaccard     float64 // Shared over the size of the union
	// Conflict is set when both hold numbers and they differ, or when
	// one is negated and the other is not: then they are never the same.
	Conflict bool
}

// Compare scores two bags of terms.
func Compare(a, b Terms) Score {
	s := Score{Shared: shared(a, b)}
	na, nb := a.Len(), b.Len()
	if small := min(na, nb); small > 0 {
		s.Containment = float64(s.Shared) / float64(small)
		s.Jaccard = jaccard(s.Shared, na, nb)
	}
	s.Conflict = (a[negation] > 0) != (b[negation] > 0) || numbersDiffer(a, b) || contrasted(a, b)
	return s
}

// shared is how many terms a and b share, counting repeats.
func shared(a, b Terms) int {
	n := 0
	for t, ca := range a {
		n += min(ca, b[t])
	}
	return n
}

// jaccard is the Jaccard score of na and nb terms of which s are shared.
func jaccard(s, na, nb int) float64 { return float64(s) / float64(na+nb-s) }

// contrasts are classes of words that name one of several alternatives:
// "the public API" and "the internal API" are two things however much
// else their texts share. Terms (stems) of one class in a and others of
// it in b, none in both, make a conflict.
var contrasts = sync.OnceValue(func() map[string]int {
	m := map[string]int{}
	for i, class := range []string{
		"public internal private", "mobile web desktop", "ios android", "frontend backend",
		"unit integration e2e contract", "client server", "staging production",
	} {
		for _, w := range strings.Fields(class) {
			m[stem(w)] = i + 1
		}
	}
	return m
})

// contrasted reports whether a and b name different alternatives of one
// contrast class.
func contrasted(a, b Terms) bool {
	var ca, cb, both uint64 // bit i: class i seen
	for t := range a {
		if c := contrasts()[t]; c > 0 {
			ca |= 1 << c
			if b[t] > 0 {
				both |= 1 << c
			}
		}
	}
	for t := range b {
		if c := contrasts()[t]; c > 0 {
			cb |= 1 << c
		}
	}
	return ca&cb&^both != 0
}

// SameMemory reports whether two names-plus-descriptions name the same
// memory.
func (s Score) SameMemory() bool { return !s.Conflict && s.Jaccard >= SimilarThreshold }

// SameFact reports whether two facts say the same thing.
func (s Score) SameFact() bool {
	return !s.Conflict && s.Shared >= minFactShared && s.Containment >= FactThreshold
}

// Similar reports whether two name-plus-description strings are the same
// memory, with their Jaccard score.
func Similar(a, b string) (float64, bool) {
	s := Compare(TermsOf(a), TermsOf(b))
	return s.Jaccard, s.SameMemory()
}

// Jaccard is the Jaccard score of the terms of a and b, from 0 (nothing
// shared) to 1 (the same terms).
func Jaccard(a, b string) float64 { return Compare(TermsOf(a), TermsOf(b)).Jaccard }

// numbersDiffer reports whether a and b both hold terms with digits and
// not the same ones: "keep PRs small" and "keep PRs under 400 lines" may
// be one fact; "API v1" and "API v2" are not.
func numbersDiffer(a, b Terms) bool {
	na, nb := 0, 0
	differ := false
	for t := range a {
		if hasDigit(t) {
			na++
			differ = differ || b[t] == 0
		}
	}
	for t := range b {
		if hasDigit(t) {
			nb++
		}
	}
	return na > 0 && nb > 0 && (differ || na != nb)
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// TermsOf returns the content terms of s.
func TermsOf(s string) Terms {
	set := Terms{}
	eachTerm(s, func(t string) { set[t]++ })
	return set
}

// TermList returns the content terms of s in order, repeats kept: for
// comparing short keys such as "deploy day".
func TermList(s string) []string {
	var out []string
	eachTerm(s, func(t string) { out = append(out, t) })
	return out
}

// eachTerm calls fn for each term of s, in order.
func eachTerm(s string, fn func(string)) {
	for _, w := range splitWords(s) {
		for _, t := range wordTerms(w) {
			fn(t)
		}
	}
}

// splitWords splits s into its words as the tokenizer gives them,
// lowercased first (so camelCase stays one word), a compound's parts
// without its whole: runs of letters and digits, an apostrophe between
// letters kept inside ("don't").
func splitWords(s string) []string {
	var out []string
	tk := tokenizers.Get().(*tokenize.Tokenizer)
	defer tokenizers.Put(tk)
	tk.Each(strings.ToLower(s), 0, func(w tokenize.Word) {
		if !w.Whole {
			out = append(out, w.Folded)
		}
	})
	return out
}

// tokenizers keeps tokenizers for reuse: one is not safe for concurrent
// use.
var tokenizers = sync.Pool{New: func() any { return tokenize.NewShared() }}

// wordTerms returns the terms one lowercase word gives: none for a stop
// word, "not" for a negation, the stems of an abbreviation's words, else
// its own stem.
func wordTerms(w string) []string {
	w = strings.TrimSuffix(w, "'s")
	switch {
	case tokenize.IsNegation(w):
		return []string{negation}
	case tokenize.IsStopWord(w):
		return nil
	case abbreviations()[w] != nil:
		return abbreviations()[w]
	case strings.ContainsRune(w, '\''):
		return nil // other contractions: "it'll", "we'd"
	case utf8.RuneCountInString(w) == 1 && !hasDigit(w):
		return nil
	}
	return []string{stem(w)}
}

// negation is the term every negating word gives.
const negation = "not"

// abbreviations spell out a few abbreviations engineers write, as the
// stems of their words.
var abbreviations = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for abbr, long := range map[string]string{
		"pr": "pull request", "prs": "pull requests", "db": "database", "dbs": "databases",
		"repo": "repository", "repos": "repositories", "config": "configuration",
		"configs": "configurations", "cfg": "configuration", "env": "environment",
		"envs": "environments", "k8s": "kubernetes", "doc": "documentation",
		"docs": "documentation", "dep": "dependency", "deps": "dependencies",
		"prod": "production", "auth": "authentication", "msg": "message",
		"msgs": "messages", "pg": "postgres", "postgresql": "postgres",
	} {
		for _, w := range strings.Fields(long) {
			m[abbr] = append(m[abbr], stem(w))
		}
	}
	return m
})

// stem is the shared stemmer's term for a word.
func stem(w string) string { return tokenize.Stem(w) }

func plainLetters[S string | []byte](w S) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// matcher compares one probe (a new memory's name and description)
// against many index entries, as Similar does, for the duplicate check of
// every add. Most entries share a word or two with the probe at most; the
// matcher rules those out by counting, without stemming their words, so
// the check stays cheap at 10,000 entries.
type matcher struct {
	probe    Terms
	probeLen int     // probe.Len()
	keys     pairSet // the first two bytes of each probe term
	// special holds, for every word whose terms may not start with its
	// own first two letters, how many probe terms it gives; specialKeys
	// their first two bytes, so most words skip the map.
	special     map[string]int
	specialKeys pairSet
	// counted caches count for the words that get past the prefix test:
	// entries written from one vocabulary share most of their words, and
	// counting each of them again (splitting and stemming) was most of an
	// add at 10,000 entries.
	counted map[string]int
	buf     []byte // the current word, lowercased
	// cache, when set, holds the entries' terms from earlier adds: with
	// them at hand, comparing is cheaper than ruling out.
	cache *Cache
}

// pairSet is a set of two-byte prefixes (a one-byte word is its byte and
// 0), tested without hashing: the duplicate check tests every word of
// every entry of its type.
type pairSet [1 << 16 / 64]uint64

func pairOf[S string | []byte](w S) uint16 {
	switch len(w) {
	case 0:
		return 0
	case 1:
		return uint16(w[0]) << 8
	}
	return uint16(w[0])<<8 | uint16(w[1])
}

func (p *pairSet) add(k uint16)      { p[k/64] |= 1 << (k % 64) }
func (p *pairSet) has(k uint16) bool { return p[k/64]&(1<<(k%64)) != 0 }

func newMatcher(probe string) *matcher {
	m := &matcher{probe: TermsOf(probe), special: map[string]int{}}
	m.probeLen = m.probe.Len()
	for t := range m.probe {
		if len(t) >= 2 {
			// A word of three or more letters is tested by its first
			// two (hits); a shorter one is counted exactly.
			m.keys.add(pairOf(t))
		}
	}
	for w := range tokenize.Negations() {
		m.special[w] = m.count(w)
	}
	for _, w := range snowballExceptions {
		m.special[w] = m.count(w)
	}
	for w := range abbreviations() {
		m.special[w] = m.count(w)
	}
	for w := range m.special {
		m.specialKeys.add(pairOf(w))
	}
	return m
}

// count is how many probe terms the word w gives.
func (m *matcher) count(w string) int {
	n := 0
	for _, t := range wordTerms(w) {
		if m.probe[t] > 0 {
			n++
		}
	}
	return n
}

// similar reports what Similar(probe, title+" "+hook) reports; the score
// is exact whenever ok is true.
func (m *matcher) similar(title, hook string) (score float64, ok bool) {
	if m.cache != nil {
		// The Jaccard score first, from the cached terms: most entries
		// fall below the threshold, and only those above it are compared
		// in full (negations, numbers, contrasts).
		e := m.cache.termsOf(title, hook)
		if n := shared(m.probe, e.terms); n == 0 || jaccard(n, m.probeLen, e.n) < SimilarThreshold {
			return 0, false
		}
		s := Compare(m.probe, e.terms)
		return s.Jaccard, s.SameMemory()
	}
	if !m.couldBeSimilar(title, hook) {
		return 0, false
	}
	s := Compare(m.probe, TermsOf(title+" "+hook))
	return s.Jaccard, s.SameMemory()
}

// couldBeSimilar is false only when Similar(probe, s) is sure to be
// false, s being the parts joined by spaces. It counts, with repetition,
// the words of s that may give a probe term, which bounds the shared
// terms from above; the probe's own terms bound the union from below, so
// hits/len(probe) bounds the Jaccard score from above. A plain word's
// stem keeps its first two letters (Snowball changes only later letters,
// but for the few words m.special lists), so a word whose first two
// letters start no probe term gives none.
func (m *matcher) couldBeSimilar(parts ...string) bool {
	n := m.probeLen
	if n == 0 {
		return false // Jaccard against an empty set is 0
	}
	hits := 0
	m.buf = m.buf[:0]
	flush := func() {
		if len(m.buf) > 0 {
			hits += m.hits(m.buf)
		}
		m.buf = m.buf[:0]
	}
	for _, s := range parts {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= utf8.RuneSelf:
				return true // splitWords handles Unicode letters and case: let Similar decide
			case 'A' <= c && c <= 'Z':
				m.buf = append(m.buf, c+'a'-'A')
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				m.buf = append(m.buf, c)
			case c == '\'' && len(m.buf) > 0 && i+1 < len(s) && asciiLetter(s[i+1]):
				m.buf = append(m.buf, c)
			case c == '\'' && i+1 < len(s) && s[i+1] >= utf8.RuneSelf:
				return true
			default:
				flush()
			}
		}
		flush()
	}
	return float64(min(hits, n))/float64(n) >= SimilarThreshold
}

// hits bounds how many probe terms one lowercase word gives: exactly for
// the special words and the short or mixed ones, else 1 when its first two
// letters start a probe term (a stop word may be counted: the bound only
// loosens).
func (m *matcher) hits(w []byte) int {
	if m.specialKeys.has(pairOf(w)) {
		if n, ok := m.special[string(w)]; ok {
			return n
		}
	}
	if len(w) > 2 && plainLetters(w) && !m.keys.has(pairOf(w)) {
		return 0
	}
	if n, ok := m.counted[string(w)]; ok {
		return n
	}
	if m.counted == nil {
		m.counted = map[string]int{}
	}
	n := m.count(string(w))
	m.counted[string(w)] = n
	return n
}

// snowballExceptions are the words the Snowball English stemmer rewrites
// from the start (dying: die).
var snowballExceptions = []string{"dying", "lying", "tying", "skies"}

func asciiLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
