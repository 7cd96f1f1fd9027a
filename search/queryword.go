package search

import "strings"

// word turns one word of a query into a node: a term, a prefix, or for a
// compound (api-latency) either the whole word or its parts in a row. A
// word of punctuation alone (a lone * or -) gives nil.
func (p *qparser) word(w string) (*node, error) {
	core := strings.TrimRight(w, "*")
	prefix := len(core) < len(w)
	parts, whole := p.split(core)
	if len(parts) == 0 {
		return nil, nil // punctuation, or a * with nothing before it
	}
	p.note(parts)
	if prefix {
		last := parts[len(parts)-1]
		if p.neg == 0 {
			p.out.prefixes = append(p.out.prefixes, last.folded)
		}
		pre := &node{kind: nPrefix, text: last.folded}
		if len(parts) == 1 {
			return pre, nil
		}
		and := &node{kind: nAnd}
		for _, w := range parts[:len(parts)-1] {
			and.kids = append(and.kids, &node{kind: nTerm, text: w.term})
		}
		and.kids = append(and.kids, pre)
		return and, nil
	}
	if len(parts) == 1 {
		n := &node{kind: nTerm, text: parts[0].term, isStop: isStop(parts[0].folded)}
		if p.neg == 0 {
			n.typed = parts[0].folded
		}
		return n, nil
	}
	alt := &node{kind: nOr, alt: true, kids: []*node{phraseOf(parts)}}
	if whole != "" {
		alt.kids = append(alt.kids, &node{kind: nTerm, text: whole})
		if p.neg == 0 {
			p.out.terms[whole] = true
		}
	}
	return alt, nil
}

// phrase turns a quoted phrase into a node; an empty one gives nil.
func (p *qparser) phrase(text string) (*node, error) {
	parts, _ := p.split(text)
	if len(parts) == 0 {
		return nil, nil
	}
	p.note(parts)
	if len(parts) == 1 {
		return &node{kind: nTerm, text: parts[0].term}, nil
	}
	return phraseOf(parts), nil
}

// split tokenizes query text into its parts and, for one compound, the
// whole word.
func (p *qparser) split(text string) (parts []word, whole string) {
	p.tk.each(text, 0, func(w word) {
		if w.whole {
			whole = w.folded
			return
		}
		parts = append(parts, w)
	})
	return parts, whole
}

// note counts the words against the limit and, outside NOT, records them
// as the words the query asks for and the terms a snippet marks.
func (p *qparser) note(parts []word) {
	p.leaves += len(parts)
	if p.neg > 0 {
		return
	}
	for _, w := range parts {
		p.out.words = append(p.out.words, w.folded)
		p.out.terms[w.term] = true
	}
}

func phraseOf(parts []word) *node {
	n := &node{kind: nPhrase}
	for _, w := range parts {
		n.seq = append(n.seq, phraseTerm{term: w.term, off: w.pos - parts[0].pos})
	}
	return n
}

// withPeriod adds the months of a period to a query as one more word;
// a query of nothing but a period asks for the period alone.
func withPeriod(root *node, months []string) *node {
	if len(months) == 0 {
		return root
	}
	per := &node{kind: nOr, alt: true}
	for _, m := range months {
		per.kids = append(per.kids, &node{kind: nTerm, text: m})
	}
	switch {
	case root == nil:
		return per
	case root.kind == nAnd && root.implicit:
		root.kids = append(root.kids, per)
		return root
	}
	return &node{kind: nAnd, implicit: true, kids: []*node{root, per}}
}

// typing marks the last token a prefix when it is a plain word of at
// least minPrefix bytes: a shorter one would stand for too many words.
func typing(toks []qtok) {
	n := len(toks)
	if n == 0 || toks[n-1].kind != tWord || n > 1 && toks[n-2].kind == tNot {
		return
	}
	if w := toks[n-1].text; len(strings.TrimRight(w, "*")) >= minPrefix && !strings.HasSuffix(w, "*") {
		toks[n-1].text = w + "*"
	}
}

// minPrefix is the shortest last word read as a prefix while typing.
const minPrefix = 2
