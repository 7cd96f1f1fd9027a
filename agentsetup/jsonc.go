package agentsetup

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting so that a hostile file cannot exhaust the stack.
const maxDepth = 200

// node is one JSON value with its byte span in the source.
type node struct {
	kind       byte // '{', '[', '"' (string), '0' (number), 'l' (true, false, null)
	start, end int  // the value's bytes: src[start:end]
	items      []item
	str        string // decoded string, for kind '"'
}

// item is an object member or an array element. For an element key is ""
// and keyStart is the value's start.
type item struct {
	key      string
	keyStart int
	val      *node
	comma    int // offset of the comma after the value, or -1
}

// member returns the last member named key (JSON.parse keeps the last of
// duplicate keys, so that is the one the agent reads).
func (n *node) member(key string) (*item, int) {
	if n == nil || n.kind != '{' {
		return nil, -1
	}
	for i := len(n.items) - 1; i >= 0; i-- {
		if n.items[i].key == key {
			return &n.items[i], i
		}
	}
	return nil, -1
}

// SyntaxError reports a configuration file memdir cannot parse; setup
// refuses to touch such a file.
type SyntaxError struct {
	Path   string
	Line   int
	Col    int
	Reason string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s; fix the file by hand (memdir changed nothing)", e.Path, e.Line, e.Col, e.Reason)
}

// UserError marks a file the user must fix: the CLI exits 2.
func (e *SyntaxError) UserError() {}

// jsonParser reads JSON with the two extensions agents' settings files
// allow: comments (// and /* */) and trailing commas.
type jsonParser struct {
	src   string
	pos   int
	depth int
	err   *SyntaxError
}

// parseJSONC parses src, which must hold one JSON value, usually an object.
func parseJSONC(path, src string) (*node, error) {
	p := &jsonParser{src: src}
	if strings.HasPrefix(src, "\ufeff") {
		p.pos = len("\ufeff")
	}
	if !utf8.ValidString(src) {
		return nil, p.fail(path, "the file is not valid UTF-8")
	}
	p.skip()
	if p.err != nil {
		return nil, p.finish(path)
	}
	n := p.value()
	if p.err == nil {
		p.skip()
		if p.err == nil && p.pos < len(src) {
			p.errorf("unexpected %q after the top-level value", p.peekRune())
		}
	}
	if p.err != nil {
		return nil, p.finish(path)
	}
	return n, nil
}

func (p *jsonParser) fail(path, reason string) error {
	p.errorf("%s", reason)
	return p.finish(path)
}

// finish fills in the path and the line and column of the error.
func (p *jsonParser) finish(path string) error {
	at := min(p.err.Col, len(p.src))
	p.err.Path = path
	p.err.Line = 1 + strings.Count(p.src[:at], "\n")
	p.err.Col = 1 + utf8.RuneCountInString(p.src[strings.LastIndexByte(p.src[:at], '\n')+1:at])
	return p.err
}

// errorf records the first error, at the current offset (kept in Col until
// finish turns it into a line and column).
func (p *jsonParser) errorf(format string, a ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Col: p.pos, Reason: fmt.Sprintf(format, a...)}
	}
}

func (p *jsonParser) peekRune() string {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return string(r)
}

// skip passes white space and comments.
func (p *jsonParser) skip() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case strings.HasPrefix(p.src[p.pos:], "//"):
			if i := strings.IndexByte(p.src[p.pos:], '\n'); i >= 0 {
				p.pos += i + 1
			} else {
				p.pos = len(p.src)
			}
		case strings.HasPrefix(p.src[p.pos:], "/*"):
			i := strings.Index(p.src[p.pos+2:], "*/")
			if i < 0 {
				p.errorf("a /* comment is never closed")
				return
			}
			p.pos += i + 4
		default:
			return
		}
	}
}

func (p *jsonParser) value() *node {
	if p.pos >= len(p.src) {
		p.errorf("unexpected end of file")
		return nil
	}
	switch c := p.src[p.pos]; {
	case c == '{' || c == '[':
		return p.container(c)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(p.src[p.pos:], lit) {
			n := &node{kind: 'l', start: p.pos, end: p.pos + len(lit)}
			p.pos += len(lit)
			return n
		}
	}
	p.errorf("unexpected %q where a value should be", p.peekRune())
	return nil
}

// container parses an object or an array.
func (p *jsonParser) container(open byte) *node {
	closing := byte('}')
	if open == '[' {
		closing = ']'
	}
	if p.depth++; p.depth > maxDepth {
		p.errorf("nested more than %d levels deep", maxDepth)
		return nil
	}
	defer func() { p.depth-- }()
	n := &node{kind: open, start: p.pos}
	p.pos++
	for {
		p.skip()
		if p.err != nil {
			return nil
		}
		if p.pos < len(p.src) && p.src[p.pos] == closing {
			p.pos++
			n.end = p.pos
			return n
		}
		if len(n.items) > 0 && n.items[len(n.items)-1].comma < 0 {
			p.errorf("expected , or %c", closing)
			return nil
		}
		it, ok := p.item(open)
		if !ok {
			return nil
		}
		p.skip()
		if p.err != nil {
			return nil
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			it.comma = p.pos
			p.pos++
		}
		n.items = append(n.items, it)
	}
}

// item parses one member ("key": value) or one array element.
func (p *jsonParser) item(open byte) (item, bool) {
	it := item{keyStart: p.pos, comma: -1}
	if open == '{' {
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			p.errorf("expected a quoted key or }")
			return it, false
		}
		k := p.str()
		if k == nil {
			return it, false
		}
		it.key = k.str
		p.skip()
		if p.err != nil || p.pos >= len(p.src) || p.src[p.pos] != ':' {
			p.errorf("expected : after the key %q", it.key)
			return it, false
		}
		p.pos++
		p.skip()
		if p.err != nil {
			return it, false
		}
	}
	it.val = p.value()
	return it, it.val != nil
}

// str parses a string; encoding/json checks the escapes and decodes it.
func (p *jsonParser) str() *node {
	start := p.pos
	i := p.pos + 1
	for ; i < len(p.src); i++ {
		c := p.src[i]
		if c == '\\' {
			i++
			continue
		}
		if c == '"' {
			break
		}
		if c < 0x20 {
			p.pos = i
			p.errorf("a control character inside a string")
			return nil
		}
	}
	if i >= len(p.src) {
		p.errorf("a string is never closed")
		return nil
	}
	n := &node{kind: '"', start: start, end: i + 1}
	if err := json.Unmarshal([]byte(p.src[start:i+1]), &n.str); err != nil {
		p.errorf("bad escape in a string")
		return nil
	}
	p.pos = i + 1
	return n
}

// number parses a JSON number: -?int frac? exp?.
func (p *jsonParser) number() *node {
	start := p.pos
	i := p.pos
	if p.src[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
			i++
		}
		return i - j
	}
	intStart := i
	if n := digits(); n == 0 || n > 1 && p.src[intStart] == '0' {
		p.errorf("malformed number")
		return nil
	}
	if i < len(p.src) && p.src[i] == '.' {
		i++
		if digits() == 0 {
			p.errorf("malformed number")
			return nil
		}
	}
	if i < len(p.src) && (p.src[i] == 'e' || p.src[i] == 'E') {
		i++
		if i < len(p.src) && (p.src[i] == '+' || p.src[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.errorf("malformed number")
			return nil
		}
	}
	p.pos = i
	return &node{kind: '0', start: start, end: i}
}
