package agentsetup

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
)

// tomlScan is what memdir needs to know about a TOML file: that it parses,
// where each table header is, and which keys it defines.
type tomlScan struct {
	headers []tomlHeader
	keys    []tomlKey
}

type tomlHeader struct {
	path  []string
	array bool // [[path]]
	line  int
}

type tomlKey struct {
	path   []string // full path: the table's path, then the dotted key
	inline []string // for an inline-table value, its top-level keys
	line   int
}

// tomlScanner checks TOML syntax: headers, keys, strings of the four
// kinds, arrays, inline tables, and bare values (numbers, booleans,
// dates). It does not check semantics (a table defined twice, say) beyond
// what setup needs.
type tomlScanner struct {
	src   string
	pos   int
	depth int
	scan  tomlScan
	table []string
}

// scanTOML parses src well enough to refuse a malformed file.
func scanTOML(path, src string) (*tomlScan, error) {
	s := &tomlScanner{src: src}
	if !utf8.ValidString(src) {
		return nil, s.errAt(path, 0, "the file is not valid UTF-8")
	}
	for {
		s.blank()
		if s.pos >= len(s.src) {
			return &s.scan, nil
		}
		at := s.pos
		var err error
		if s.src[s.pos] == '[' {
			err = s.header()
		} else {
			err = s.keyValue()
		}
		if err == nil {
			err = s.lineEnd()
		}
		if err != nil {
			if s.pos < at {
				s.pos = at
			}
			return nil, s.errAt(path, s.pos, err.Error())
		}
	}
}

func (s *tomlScanner) errAt(path string, pos int, reason string) error {
	pos = min(pos, len(s.src))
	line := 1 + strings.Count(s.src[:pos], "\n")
	col := 1 + utf8.RuneCountInString(s.src[strings.LastIndexByte(s.src[:pos], '\n')+1:pos])
	return &SyntaxError{Path: path, Line: line, Col: col, Reason: reason}
}

func (s *tomlScanner) line() int { return 1 + strings.Count(s.src[:s.pos], "\n") }

// blank skips white space, newlines and comments.
func (s *tomlScanner) blank() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n':
			s.pos++
		case '\r': // only as part of CRLF
			if !strings.HasPrefix(s.src[s.pos:], "\r\n") {
				return
			}
			s.pos++
		case '#':
			s.comment()
		default:
			return
		}
	}
}

func (s *tomlScanner) comment() {
	if i := strings.IndexByte(s.src[s.pos:], '\n'); i >= 0 {
		s.pos += i
	} else {
		s.pos = len(s.src)
	}
}

func (s *tomlScanner) spaces() {
	for s.pos < len(s.src) && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
		s.pos++
	}
}

// lineEnd accepts what may follow a statement: spaces, a comment, the end
// of the line.
func (s *tomlScanner) lineEnd() error {
	s.spaces()
	if s.pos < len(s.src) && s.src[s.pos] == '#' {
		s.comment()
	}
	if strings.HasPrefix(s.src[s.pos:], "\r\n") {
		s.pos += 2
		return nil
	}
	if s.pos < len(s.src) && s.src[s.pos] != '\n' {
		return fmt.Errorf("unexpected %q after a value (one key = value a line)", s.src[s.pos:s.pos+1])
	}
	return nil
}

func (s *tomlScanner) header() error {
	array := strings.HasPrefix(s.src[s.pos:], "[[")
	line := s.line()
	s.pos++
	if array {
		s.pos++
	}
	s.spaces()
	path, err := s.key()
	if err != nil {
		return err
	}
	s.spaces()
	closing := "]"
	if array {
		closing = "]]"
	}
	if !strings.HasPrefix(s.src[s.pos:], closing) {
		return fmt.Errorf("a table header is not closed with %s", closing)
	}
	s.pos += len(closing)
	s.table = path
	s.scan.headers = append(s.scan.headers, tomlHeader{path: path, array: array, line: line})
	return nil
}

func (s *tomlScanner) keyValue() error {
	line := s.line()
	k, err := s.key()
	if err != nil {
		return err
	}
	s.spaces()
	if s.pos >= len(s.src) || s.src[s.pos] != '=' {
		return fmt.Errorf("expected = after the key %q", strings.Join(k, "."))
	}
	s.pos++
	s.spaces()
	inline, err := s.value()
	if err != nil {
		return err
	}
	full := append(append([]string(nil), s.table...), k...)
	s.scan.keys = append(s.scan.keys, tomlKey{path: full, inline: inline, line: line})
	return nil
}

var bareKey = lazyre.New(`^[A-Za-z0-9_-]+`)

// key parses a dotted key: bare or quoted parts joined by dots.
func (s *tomlScanner) key() ([]string, error) {
	var parts []string
	for {
		s.spaces()
		var part string
		switch {
		case s.pos < len(s.src) && (s.src[s.pos] == '"' || s.src[s.pos] == '\''):
			v, err := s.str(false)
			if err != nil {
				return nil, err
			}
			part = v
		default:
			m := bareKey().FindString(s.src[s.pos:])
			if m == "" {
				return nil, fmt.Errorf("expected a key")
			}
			part = m
			s.pos += len(m)
		}
		parts = append(parts, part)
		s.spaces()
		if s.pos >= len(s.src) || s.src[s.pos] != '.' {
			return parts, nil
		}
		s.pos++
	}
}

// str parses a basic or literal string; multi is whether the multi-line
// forms are allowed (values, not keys). It returns the raw content.
func (s *tomlScanner) str(multi bool) (string, error) {
	q := s.src[s.pos : s.pos+1]
	if multi && strings.HasPrefix(s.src[s.pos:], q+q+q) {
		fence := q + q + q
		start := s.pos + 3
		i := start
		for {
			j := strings.Index(s.src[i:], fence)
			if j < 0 {
				return "", fmt.Errorf("a %s string is never closed", fence)
			}
			i += j
			if q == `"` && escaped(s.src[start:i]) {
				i++
				continue
			}
			break
		}
		end := i + 3
		for end < len(s.src) && s.src[end] == q[0] && end-i < 5 { // up to two quotes may end the string
			end++
		}
		s.pos = end
		return s.src[start:i], nil
	}
	start := s.pos + 1
	for i := start; i < len(s.src); i++ {
		switch c := s.src[i]; {
		case c == '\n' || c == '\r':
			return "", fmt.Errorf("a string is never closed on its line")
		case c == '\\' && q == `"`:
			if i+1 >= len(s.src) || !strings.ContainsRune(`btnfre"\uUx`, rune(s.src[i+1])) {
				return "", fmt.Errorf("bad escape in a string")
			}
			i++
		case c == q[0]:
			s.pos = i + 1
			return s.src[start:i], nil
		}
	}
	return "", fmt.Errorf("a string is never closed")
}

// escaped reports whether the text ends in an odd number of backslashes.
func escaped(s string) bool {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

var bareValue = lazyre.New(`^(true|false|[+-]?(inf|nan)|[+-]?[0-9][0-9A-Za-z_:.+-]*( [0-9][0-9:.]*[0-9A-Za-z:.+-]*)?)`)

// value parses one value; for an inline table it returns its keys.
func (s *tomlScanner) value() ([]string, error) {
	if s.pos >= len(s.src) {
		return nil, fmt.Errorf("a key has no value")
	}
	switch s.src[s.pos] {
	case '"', '\'':
		_, err := s.str(true)
		return nil, err
	case '[':
		return nil, s.array()
	case '{':
		return s.inlineTable()
	}
	m := bareValue().FindString(s.src[s.pos:])
	if m == "" {
		return nil, fmt.Errorf("a value must be a quoted string, a number, a boolean, a date, a list or a table")
	}
	s.pos += len(m)
	return nil, nil
}

func (s *tomlScanner) nest() error {
	if s.depth++; s.depth > maxDepth {
		return fmt.Errorf("nested more than %d levels deep", maxDepth)
	}
	return nil
}

func (s *tomlScanner) array() error {
	if err := s.nest(); err != nil {
		return err
	}
	defer func() { s.depth-- }()
	s.pos++
	for {
		s.blank()
		if s.pos >= len(s.src) {
			return fmt.Errorf("a list is never closed")
		}
		if s.src[s.pos] == ']' {
			s.pos++
			return nil
		}
		if _, err := s.value(); err != nil {
			return err
		}
		s.blank()
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos >= len(s.src) || s.src[s.pos] != ']' {
			return fmt.Errorf("expected , or ] in a list")
		}
	}
}

func (s *tomlScanner) inlineTable() ([]string, error) {
	if err := s.nest(); err != nil {
		return nil, err
	}
	defer func() { s.depth-- }()
	s.pos++
	var keys []string
	for {
		s.blank()
		if s.pos < len(s.src) && s.src[s.pos] == '}' {
			s.pos++
			return keys, nil
		}
		k, err := s.key()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k[0])
		s.spaces()
		if s.pos >= len(s.src) || s.src[s.pos] != '=' {
			return nil, fmt.Errorf("expected = in an inline table")
		}
		s.pos++
		s.spaces()
		if _, err := s.value(); err != nil {
			return nil, err
		}
		s.blank()
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos >= len(s.src) || s.src[s.pos] != '}' {
			return nil, fmt.Errorf("expected , or } in an inline table")
		}
	}
}
