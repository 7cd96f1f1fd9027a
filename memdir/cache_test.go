package memdir

import (
	"strings"
	"testing"
	"unsafe"
)

// TestCacheKeysAreCopies checks that the cache never keeps the string it
// was given: an entry's title and hook are slices of the whole index
// file, and a key sharing their bytes kept one copy of the file alive per
// add in the MCP server.
func TestCacheKeysAreCopies(t *testing.T) {
	file := strings.Repeat("- [Other](other.md) — filler\n", 1000) + "Deploy window hook text"
	title, hook := file[len(file)-23:len(file)-17], file[len(file)-17:]
	c := NewCache()
	c.termsOf(title, hook)
	if len(c.terms) != 1 {
		t.Fatalf("cache holds %d entries, want 1", len(c.terms))
	}
	for k := range c.terms {
		if k.title != title || k.hook != hook {
			t.Fatalf("key = %q %q, want %q %q", k.title, k.hook, title, hook)
		}
		if unsafe.StringData(k.title) == unsafe.StringData(title) || unsafe.StringData(k.hook) == unsafe.StringData(hook) {
			t.Error("a cache key shares its bytes with the caller's string (and so keeps the whole file alive)")
		}
	}
	// A second lookup is a hit: the same terms, nothing added.
	if got := c.termsOf(title, hook); got.n != TermsOf(title+" "+hook).Len() || len(c.terms) != 1 {
		t.Errorf("second lookup: %d terms, cache of %d; want a hit", got.n, len(c.terms))
	}
}
