package search

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/memdir"
)

// Limits of a query. Longer ones are almost certainly pasted by mistake,
// and every word costs a posting-list walk.
const (
	MaxQueryBytes = 1000
	MaxQueryWords = 64
)

type nodeKind uint8

const (
	nTerm   nodeKind = iota // one index term
	nPrefix                 // every term of a word starting with text
	nPhrase                 // terms at consecutive positions of one field
	nAnd                    // every kid; nNot kids exclude
	nOr                     // any kid
	nNot                    // excludes its kid (only under nAnd)
)

// node is a parsed query.
type node struct {
	kind nodeKind
	text string       // nTerm: the term; nPrefix: the folded prefix
	seq  []phraseTerm // nPhrase
	kids []*node
	// implicit marks an nAnd of words side by side, with no AND written:
	// when no memory has them all, it is read as an OR.
	implicit bool
	// alt marks the nOr of a compound's readings (the whole word, or its
	// parts as a phrase): a memory scores by its best reading only.
	alt bool
	// isStop marks an nTerm that is a stop word outside a phrase.
	isStop bool
	// typed is an nTerm's word as typed (folded), outside phrases and
	// NOT: a word the index lacks is read as its near spellings.
	typed string
	// weight scales an nTerm's score (a near spelling's); 0 means 1.
	weight float64
}

// phraseTerm is a term of a phrase and its offset from the first.
type phraseTerm struct {
	term string
	off  int
}

// parsed is a query ready to run.
type parsed struct {
	root *node
	// words are the folded words the query asks for, in order (not the
	// excluded ones): an exact name match has exactly these.
	words []string
	// marks are the terms and prefixes a snippet highlights.
	terms    map[string]bool
	prefixes []string
	// dropped counts the words rarest took out of root: they count in
	// a memory's coverage as words it is not known to hold.
	dropped int
}

// queryError is a query that cannot be read: the message says why and
// how to write it instead.
func queryError(format string, a ...any) error {
	return &memdir.InputError{Msg: "query: " + fmt.Sprintf(format, a...)}
}

// parseQuery reads the query language: words (all of them should match),
// "phrases", prefix*, OR, AND, NOT (or -word) and parentheses. An
// operator that cannot apply is punctuation (see the package doc: a
// stray quote, parenthesis, OR, AND, NOT, - or *); what is left are
// errors no reading can mend, as *memdir.InputError values with one line
// for the person who typed it.
func parseQuery(text string) (*parsed, error) { return parseTyped(text, false, time.Time{}) }

// parseTyped is parseQuery, reading the last word as a prefix when
// prefix is set and the text does not end in a space (a word being
// typed; a space says it is complete), and, unless now is zero or the
// query quotes a phrase, the period the text names as one more word
// (dates.go).
func parseTyped(text string, prefix bool, now time.Time) (*parsed, error) {
	if err := checkQueryText(text); err != nil {
		return nil, err
	}
	var months []string
	if !now.IsZero() && !strings.Contains(text, `"`) {
		text, months = questionPeriod(text, now)
	}
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	if prefix && !strings.HasSuffix(text, " ") {
		typing(toks)
	}
	p := &qparser{toks: toks, tk: newTokenizer(), out: &parsed{terms: map[string]bool{}}}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	root = withPeriod(root, months)
	if root == nil {
		return nil, queryError("nothing to search for: give words, e.g. memdir search deploy checklist")
	}
	if p.leaves > MaxQueryWords {
		return nil, queryError("%d words; at most %d are allowed", p.leaves, MaxQueryWords)
	}
	if err := checkNot(root, false); err != nil {
		return nil, err
	}
	p.out.root = dropStops(root)
	return p.out, nil
}

func checkQueryText(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return queryError("empty: give words to search for, e.g. memdir search deploy checklist")
	case len(text) > MaxQueryBytes:
		return queryError("%d bytes long; at most %d are allowed", len(text), MaxQueryBytes)
	case !utf8.ValidString(text):
		return queryError("not valid UTF-8 text")
	}
	for _, r := range text {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return queryError("holds a control character (%U): remove it", r)
		}
	}
	return nil
}

type tokKind uint8

const (
	tWord tokKind = iota
	tPhrase
	tOpen
	tClose
	tOr
	tAnd
	tNot
)

type qtok struct {
	kind tokKind
	text string
}

// lex splits a query into words, phrases, parentheses and operators.
// OR, AND and NOT are operators only in capitals; "-word" is NOT word.
func lex(text string) ([]qtok, error) {
	var toks []qtok
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			toks = append(toks, qtok{kind: tOpen})
			i++
		case c == ')':
			toks = append(toks, qtok{kind: tClose})
			i++
		case c == '"':
			end := strings.IndexByte(text[i+1:], '"')
			if end < 0 {
				i++ // a quote left open: punctuation, the words after it are words
				continue
			}
			toks = append(toks, qtok{kind: tPhrase, text: text[i+1 : i+1+end]})
			i += end + 2
		default:
			end := i
			for end < len(text) && !strings.ContainsRune(" \t\n\r()\"", rune(text[end])) {
				end++
			}
			toks = append(toks, wordTok(text[i:end])...)
			i = end
		}
	}
	return dropStrayClose(toks), nil
}

// dropStrayClose removes each ) that closes no (: punctuation. A ( left
// open is closed by the end of the query.
func dropStrayClose(toks []qtok) []qtok {
	out := toks[:0]
	depth := 0
	for _, t := range toks {
		switch t.kind {
		case tOpen:
			depth++
		case tClose:
			if depth == 0 {
				continue
			}
			depth--
		}
		out = append(out, t)
	}
	return out
}

func wordTok(w string) []qtok {
	switch w {
	case "OR", "|", "||":
		return []qtok{{kind: tOr}}
	case "AND", "&&":
		return []qtok{{kind: tAnd}}
	case "NOT":
		return []qtok{{kind: tNot}}
	}
	if len(w) > 1 && w[0] == '-' {
		return []qtok{{kind: tNot}, {kind: tWord, text: w[1:]}}
	}
	return []qtok{{kind: tWord, text: w}}
}

type qparser struct {
	toks   []qtok
	i      int
	tk     *tokenizer
	out    *parsed
	leaves int
	neg    int // depth of NOT: excluded words are not the query's words
}

func (p *qparser) peek() (tokKind, bool) {
	if p.i >= len(p.toks) {
		return 0, false
	}
	return p.toks[p.i].kind, true
}

// or parses OR-separated groups. It returns nil for nothing.
func (p *qparser) or() (*node, error) {
	var kids []*node
	for {
		n, err := p.and()
		if err != nil {
			return nil, err
		}
		if n != nil {
			kids = append(kids, n)
		}
		if k, ok := p.peek(); !ok || k != tOr {
			break
		}
		p.i++ // an OR with no words on a side joins nothing: punctuation
	}
	switch len(kids) {
	case 0:
		return nil, nil
	case 1:
		return kids[0], nil
	}
	return &node{kind: nOr, kids: kids}, nil
}

// and parses items side by side or joined by AND.
func (p *qparser) and() (*node, error) {
	var kids []*node
	explicit := false
	for {
		k, ok := p.peek()
		if !ok || k == tOr || k == tClose {
			break
		}
		if k == tAnd {
			// Every word must match anyway; an AND with no words on a
			// side is punctuation.
			explicit = explicit || len(kids) > 0
			p.i++
			continue
		}
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		if n != nil {
			kids = append(kids, n)
		}
	}
	switch len(kids) {
	case 0:
		return nil, nil
	case 1:
		return kids[0], nil
	}
	return &node{kind: nAnd, kids: kids, implicit: !explicit}, nil
}

func (p *qparser) unary() (*node, error) {
	t := p.toks[p.i]
	switch t.kind {
	case tNot:
		p.i++
		if k, ok := p.peek(); !ok || k == tOr || k == tClose || k == tAnd {
			return nil, nil // nothing to exclude: punctuation
		}
		p.neg++
		n, err := p.unary()
		p.neg--
		if err != nil || n == nil {
			return nil, err
		}
		return &node{kind: nNot, kids: []*node{n}}, nil
	case tOpen:
		p.i++
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if k, ok := p.peek(); ok && k == tClose {
			p.i++
		} // else the query ended: it closes the (
		return n, nil // nil for empty parentheses
	case tPhrase:
		p.i++
		return p.phrase(t.text)
	}
	p.i++
	return p.word(t.text)
}

// checkNot refuses NOT where it has nothing to exclude from: alone, as a
// whole group, or as one side of an OR.
func checkNot(n *node, inAnd bool) error {
	switch n.kind {
	case nNot:
		if !inAnd {
			return queryError("NOT needs words to exclude from, e.g. deploy NOT staging")
		}
		return checkNot(n.kids[0], false)
	case nAnd:
		pos := 0
		for _, k := range n.kids {
			if k.kind != nNot {
				pos++
			}
			if err := checkNot(k, true); err != nil {
				return err
			}
		}
		if pos == 0 {
			return queryError("NOT needs words to exclude from, e.g. deploy NOT staging")
		}
	case nOr:
		for _, k := range n.kids {
			if err := checkNot(k, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// dropStops removes stop words from a group of words side by side when
// the group has other words: they would only add noise.
func dropStops(n *node) *node {
	for i, k := range n.kids {
		n.kids[i] = dropStops(k)
	}
	if n.kind != nAnd || !n.implicit {
		return n
	}
	var keep []*node
	for _, k := range n.kids {
		if !k.stop() {
			keep = append(keep, k)
		}
	}
	switch {
	case len(keep) == 0 || len(keep) == len(n.kids):
		return n
	case len(keep) == 1 && keep[0].kind != nNot:
		return keep[0]
	}
	n.kids = keep
	return n
}

// stop reports whether n is a single stop word.
func (n *node) stop() bool { return n.kind == nTerm && n.isStop }
