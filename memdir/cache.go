package memdir

import (
	"strings"
	"sync"
)

// Cache keeps what a long-running process (the MCP server) would
// otherwise work out again on every call: the terms of each index entry
// that the duplicate check of an add compares the new memory with. An
// entry's terms follow from its title and hook alone, so a cached value
// is never stale: an edited entry is a new key. Safe for concurrent use.
// Set Dir.Cache to use one; a nil Cache caches nothing.
type Cache struct {
	mu    sync.Mutex
	terms map[termsKey]entryTerms
}

type termsKey struct{ title, hook string }

// entryTerms is an entry's terms and their count (Terms.Len).
type entryTerms struct {
	terms Terms
	n     int
}

// cacheMax bounds the cached entries: past it the cache starts again
// (ten times the entries of a 10,000-topic memory).
const cacheMax = 100_000

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{terms: map[termsKey]entryTerms{}} }

// termsOf is TermsOf(title+" "+hook), cached. The returned set is shared:
// it must not be changed.
func (c *Cache) termsOf(title, hook string) entryTerms {
	k := termsKey{title, hook}
	c.mu.Lock()
	t, ok := c.terms[k]
	c.mu.Unlock()
	if ok {
		return t
	}
	t.terms = TermsOf(title + " " + hook)
	t.n = t.terms.Len()
	// The key gets copies: title and hook are slices of the whole index
	// file as parsed, which a key would otherwise keep alive, one copy of
	// the file per add.
	k = termsKey{strings.Clone(title), strings.Clone(hook)}
	c.mu.Lock()
	if len(c.terms) >= cacheMax {
		c.terms = map[termsKey]entryTerms{}
	}
	c.terms[k] = t
	c.mu.Unlock()
	return t
}
