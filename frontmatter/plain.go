package frontmatter

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Pair is one line of plain frontmatter, "key: value". A key that opens a
// nested block, such as Claude Code's "metadata:" with "  type: user" under
// it, has an empty Value and its lines in Nested.
type Pair struct {
	Key, Value string
	Nested     []Pair
}

// Plain reads frontmatter of the plain shape: one "key: value" per line,
// keys lowercase words, values plain YAML scalars on one line that yaml
// reads as exactly their text, and at most one level of nesting written as
// "key:" followed by lines indented two spaces. It reports false for
// anything else (quotes, flow collections, anchors, tags, comments, block
// scalars, continuation lines, empty values, repeated keys), which the
// caller then reads with a YAML decoder: Plain accepts only what such a
// decoder reads the same way. Reading frontmatter through yaml.Node costs
// tens of microseconds a file; this costs well under one.
func Plain(yml []byte) ([]Pair, bool) {
	if len(yml) == 0 || !utf8.Valid(yml) {
		return nil, false
	}
	var out []Pair
	seen := make(map[string]bool, 8)
	for rest := yml; len(rest) > 0; {
		var line []byte
		line, rest, _ = cutLine(rest)
		if k, ok := openKey(line); ok {
			var nested []Pair
			nested, rest = nestedPairs(rest)
			if len(nested) == 0 || seen[k] {
				return nil, false
			}
			seen[k] = true
			out = append(out, Pair{Key: k, Nested: nested})
			continue
		}
		key, value, ok := plainPair(line)
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		out = append(out, Pair{Key: key, Value: value})
	}
	return out, true
}

// nestedPairs reads the lines indented by exactly two spaces at the start of
// rest; it returns no pairs when one of them is not plain.
func nestedPairs(rest []byte) ([]Pair, []byte) {
	var out []Pair
	seen := map[string]bool{}
	for len(rest) > 0 && bytes.HasPrefix(rest, []byte("  ")) {
		line, next, _ := cutLine(rest)
		key, value, ok := plainPair(line[2:])
		if !ok || seen[key] {
			return nil, rest
		}
		seen[key] = true
		out = append(out, Pair{Key: key, Value: value})
		rest = next
	}
	return out, rest
}

// openKey reports whether line is "key:" alone, opening a nested block.
func openKey(line []byte) (string, bool) {
	k, ok := bytes.CutSuffix(line, []byte(":"))
	if !ok || !isKey(k) {
		return "", false
	}
	return string(k), true
}

func isKey(k []byte) bool {
	if len(k) == 0 || k[0] < 'a' || k[0] > 'z' {
		return false
	}
	for _, c := range k {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// plainPair splits "key: value" where key is a lowercase word and value a
// plain YAML scalar on one line that yaml reads as exactly its text.
func plainPair(line []byte) (key, value string, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon < 1 || colon+2 >= len(line) || line[colon+1] != ' ' {
		return "", "", false
	}
	k, v := line[:colon], line[colon+2:]
	if !isKey(k) || !plainScalar(v) {
		return "", "", false
	}
	return string(k), string(v), true
}

// plainScalar reports whether v, a whole value on one line, is a plain
// scalar whose text is v itself.
func plainScalar(v []byte) bool {
	if len(v) == 0 || strings.IndexByte(" -?:,[]{}#&*!|>'\"%@`", v[0]) >= 0 {
		return false // an indicator, or leading space yaml would strip
	}
	if v[len(v)-1] == ' ' || v[len(v)-1] == ':' {
		return false
	}
	if bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return false // a nested mapping, or a comment
	}
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c == 0x7f || strings.IndexByte("[]{}", c) >= 0 {
				return false // controls (tab included); brackets kept for yaml
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(v[i:])
		// C1 controls, NEL and the Unicode line and paragraph separators
		// (line breaks to yaml), the byte order mark, non-characters.
		if r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || (r > 0xfffd && r < 0x10000) {
			return false
		}
		i += size
	}
	return true
}
