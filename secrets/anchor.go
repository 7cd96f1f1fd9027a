package secrets

import (
	"sort"
	"strings"
)

// anchorSet finds every anchor of every pattern in one pass over the text:
// an Aho-Corasick automaton over ASCII-case-folded bytes, with a full
// transition table over the few byte classes the anchors use.
type anchorSet struct {
	class  [256]uint8 // byte -> class; 0 is every byte no anchor uses
	nclass int
	// next maps state*nclass + class to the next state*nclass, with the
	// sign bit set when anchors end in that state: one table to read per
	// byte.
	next []int32
	out  [][]int32 // state -> ids of the anchors that end there
	// anchors[id] is the anchor text; exact[id] says the case must match;
	// owner[id] is the index of its pattern in the table.
	anchors []string
	exact   []bool
	owner   []int
}

// finalBit marks a transition into a state where anchors end.
const finalBit = -1 << 31

// hit is one anchor occurrence: the pattern it belongs to and its span.
type hit struct {
	prio, start, end int
}

func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// newAnchorSet builds the automaton for the anchors of pats.
func newAnchorSet(pats []pattern) *anchorSet {
	a := &anchorSet{nclass: 1}
	for prio, p := range pats {
		for _, s := range p.anchors {
			a.anchors = append(a.anchors, s)
			a.exact = append(a.exact, !p.fold)
			a.owner = append(a.owner, prio)
			for i := 0; i < len(s); i++ {
				c := fold(s[i])
				if a.class[c] == 0 {
					a.class[c] = uint8(a.nclass)
					a.nclass++
				}
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		a.class[c] = a.class[c+'a'-'A']
	}
	a.build()
	return a
}

// build makes the trie in the transition table itself, then, breadth
// first, the failure links and the missing transitions: a state's row is
// complete once it leaves the queue, and a failure link always points to
// a state that left it earlier.
func (a *anchorSet) build() {
	nc := a.nclass
	zero := make([]int32, nc)
	states := a.countStates()
	next := append(make([]int32, 0, states*nc), zero...)
	a.out = make([][]int32, 1, states)
	for id, s := range a.anchors {
		st := 0
		for i := 0; i < len(s); i++ {
			k := st*nc + int(a.class[s[i]])
			if next[k] == 0 {
				next = append(next, zero...)
				a.out = append(a.out, nil)
				next[k] = int32(len(a.out) - 1)
			}
			st = int(next[k])
		}
		a.out[st] = append(a.out[st], int32(id))
	}
	fail := make([]int32, len(a.out))
	queue := make([]int32, 1, len(a.out))
	for len(queue) > 0 {
		st := int(queue[0])
		queue = queue[1:]
		for c := 1; c < nc; c++ {
			child := next[st*nc+c]
			if child == 0 {
				next[st*nc+c] = next[int(fail[st])*nc+c]
				continue
			}
			if st != 0 {
				fail[child] = next[int(fail[st])*nc+c]
				a.out[child] = append(a.out[child], a.out[fail[child]]...)
			}
			queue = append(queue, child)
		}
	}
	for k, st := range next {
		next[k] = st * int32(nc)
		if len(a.out[st]) > 0 {
			next[k] |= finalBit
		}
	}
	a.next = next
}

// countStates returns the number of trie states, so that the table is
// allocated once: the root, and for each anchor in sorted order the bytes
// past what it shares with the one before it.
func (a *anchorSet) countStates() int {
	keys := make([]string, len(a.anchors))
	for i, s := range a.anchors {
		b := []byte(s)
		for j := range b {
			b[j] = a.class[b[j]]
		}
		keys[i] = string(b)
	}
	sort.Strings(keys)
	n, prev := 1, ""
	for _, k := range keys {
		common := 0
		for common < len(k) && common < len(prev) && k[common] == prev[common] {
			common++
		}
		n += len(k) - common
		prev = k
	}
	return n
}

// find calls fn for every anchor occurrence in text, exact anchors only
// where the case matches too.
func (a *anchorSet) find(text string, fn func(hit)) {
	st := int32(0)
	for i := 0; i < len(text); i++ {
		st = a.next[int(st)+int(a.class[text[i]])]
		if st >= 0 {
			continue
		}
		st &^= finalBit
		for _, id := range a.out[st/int32(a.nclass)] {
			s := a.anchors[id]
			start := i + 1 - len(s)
			if a.exact[id] && !strings.HasPrefix(text[start:], s) {
				continue
			}
			fn(hit{prio: a.owner[id], start: start, end: i + 1})
		}
	}
}
