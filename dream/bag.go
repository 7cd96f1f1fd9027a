package dream

import (
	"slices"

	"github.com/memdir/memdir/memdir"
)

// bag is a bag of terms as the built-in distiller keeps it for every fact
// and topic while it distills: the terms sorted, each as often as it
// occurs. A memdir.Terms map of a dozen terms takes about 450 bytes, its
// bag 200; with one bag a fact and one a topic, a dream of 28,000
// distinct facts keeps about 20 MB less at its peak (scripts/bench-dream).
// A bag becomes a memdir.Terms again (terms) only for the few facts and
// topics an entry is compared with.
type bag []string

// bagOf returns the bag of t.
func bagOf(t memdir.Terms) bag {
	out := make(bag, 0, t.Len())
	for k, n := range t {
		for range n {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// count is how often the bag holds t.
func (b bag) count(t string) int {
	i, ok := slices.BinarySearch(b, t)
	if !ok {
		return 0
	}
	n := 1
	for i+n < len(b) && b[i+n] == t {
		n++
	}
	return n
}

// each calls fn for every distinct term of the bag, with its count.
func (b bag) each(fn func(t string, n int)) {
	for i := 0; i < len(b); {
		j := i + 1
		for j < len(b) && b[j] == b[i] {
			j++
		}
		fn(b[i], j-i)
		i = j
	}
}

// terms returns the bag as memdir.Terms, for memdir.Compare.
func (b bag) terms() memdir.Terms {
	out := make(memdir.Terms, len(b))
	for _, t := range b {
		out[t]++
	}
	return out
}
