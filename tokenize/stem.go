package tokenize

import (
	"sync"

	"github.com/kljensen/snowball/english"
)

// stem returns the term of a folded word: the English stem of a word of
// plain letters (an apostrophe allowed) longer than two, else the word.
func stem(w string) string {
	if len(w) <= 2 || !plainLetters(w) {
		return w
	}
	return english.Stem(w, false)
}

// stemCache remembers stems for Stem: Snowball takes microseconds a word,
// and a duplicate check meets the same words again and again. It is
// dropped whole when it grows past stemCacheMax.
var stemCache struct {
	sync.RWMutex
	m map[string]string
}

const stemCacheMax = 100_000

// Stem returns the term of a folded word as a Tokenizer gives it: the
// English stem of a word of plain letters longer than two, else the word.
// It is safe for concurrent use and caches what it worked out.
func Stem(w string) string {
	if len(w) <= 2 || !plainLetters(w) {
		return w
	}
	stemCache.RLock()
	s, ok := stemCache.m[w]
	stemCache.RUnlock()
	if ok {
		return s
	}
	s = english.Stem(w, false)
	stemCache.Lock()
	if stemCache.m == nil || len(stemCache.m) >= stemCacheMax {
		stemCache.m = map[string]string{}
	}
	stemCache.m[w] = s
	stemCache.Unlock()
	return s
}
