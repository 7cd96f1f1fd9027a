package secrets

import "strings"

// anchorSet finds every anchor of every pattern in one pass over the text:
// an Aho-Corasick automaton over ASCII-case-folded bytes, with a full
// transition table over the few byte classes the anchors use.
type anchorSet struct {
	class  [256]uint8 // byte -> class; 0 is every byte no anchor uses
	nclass int
	next   []int32   // state*nclass + class -> next state*nclass
	out    [][]int32 // state -> ids of the anchors that end there
	final  []bool    // state*nclass -> len(out[state]) > 0
	// anchors[id] is the anchor text; exact[id] says the case must match;
	// owner[id] is the index of its pattern in the table.
	anchors []string
	exact   []bool
	owner   []int
}

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

// build makes the trie, then the failure links and full transitions
// breadth first.
func (a *anchorSet) build() {
	trie := [][]int32{make([]int32, a.nclass)}
	a.out = [][]int32{nil}
	for id, s := range a.anchors {
		st := int32(0)
		for i := 0; i < len(s); i++ {
			c := a.class[s[i]]
			if trie[st][c] == 0 {
				trie = append(trie, make([]int32, a.nclass))
				a.out = append(a.out, nil)
				trie[st][c] = int32(len(trie) - 1)
			}
			st = trie[st][c]
		}
		a.out[st] = append(a.out[st], int32(id))
	}
	a.next = make([]int32, len(trie)*a.nclass)
	fail := make([]int32, len(trie))
	queue := []int32{0}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		for c := 1; c < a.nclass; c++ {
			child := trie[st][c]
			if child == 0 {
				a.next[int(st)*a.nclass+c] = a.next[int(fail[st])*a.nclass+c]
				continue
			}
			if st != 0 {
				fail[child] = a.next[int(fail[st])*a.nclass+c]
				a.out[child] = append(a.out[child], a.out[fail[child]]...)
			}
			a.next[int(st)*a.nclass+c] = child
			queue = append(queue, child)
		}
	}
	a.final = make([]bool, len(a.next))
	for st := range a.next {
		a.final[st] = st%a.nclass == 0 && len(a.out[st/a.nclass]) > 0
		a.next[st] *= int32(a.nclass)
	}
}

// find calls fn for every anchor occurrence in text, exact anchors only
// where the case matches too.
func (a *anchorSet) find(text string, fn func(hit)) {
	st := int32(0)
	for i := 0; i < len(text); i++ {
		st = a.next[int(st)+int(a.class[text[i]])]
		if !a.final[st] {
			continue
		}
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
