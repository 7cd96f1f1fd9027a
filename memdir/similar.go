package memdir

import "unicode/utf8"

// matcher compares one probe (a new memory's name and description)
// against many index entries, as Similar does, for the duplicate check of
// every add. Most entries share a word or two with the probe at most; the
// matcher rules those out by counting, without building their word sets,
// so the check stays cheap at 10,000 entries.
type matcher struct {
	probe string
	words map[string]bool
	mask  uint64 // a bit per probe word hash: most other words miss it
	buf   []byte // the current word, lowercased
}

func newMatcher(probe string) *matcher {
	m := &matcher{probe: probe, words: words(probe)}
	for w := range m.words {
		m.mask |= wordBit(w)
	}
	return m
}

// wordBit is the mask bit of a lowercase word: FNV-1a, folded to 6 bits.
func wordBit[S string | []byte](w S) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint64(w[i])) * 1099511628211
	}
	return 1 << ((h ^ h>>32) & 63)
}

// similar reports what Similar(m.probe, title+" "+hook) reports; the
// score is exact whenever ok is true.
func (m *matcher) similar(title, hook string) (score float64, ok bool) {
	if !m.couldBeSimilar(title, hook) {
		return 0, false
	}
	return Similar(m.probe, title+" "+hook)
}

// couldBeSimilar is false only when Similar(m.probe, s) is sure to be
// false, s being the parts joined by spaces. The words of s that are also the probe's, counted with
// repetition, bound the shared words from above, and the probe's own
// words bound the union from below, so hits/len(probe words) bounds the
// Jaccard score from above.
func (m *matcher) couldBeSimilar(parts ...string) bool {
	n := len(m.words)
	if n == 0 {
		return false // Jaccard against an empty set is 0
	}
	hits := 0
	m.buf = m.buf[:0]
	flush := func() {
		if len(m.buf) > 0 && m.mask&wordBit(m.buf) != 0 && m.words[string(m.buf)] {
			hits++
		}
		m.buf = m.buf[:0]
	}
	for _, s := range parts {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= utf8.RuneSelf:
				return true // words() handles Unicode letters and case: let Similar decide
			case 'A' <= c && c <= 'Z':
				m.buf = append(m.buf, c+'a'-'A')
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				m.buf = append(m.buf, c)
			default:
				flush()
			}
		}
		flush()
	}
	return float64(min(hits, n))/float64(n) >= SimilarThreshold
}
