package memdir

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/typesx"
)

// Reading frontmatter through yaml.Node costs tens of microseconds a file,
// most of `memdir list` over 10,000 topics. Nearly every topic file, by
// memdir or by Claude Code, has frontmatter of one plain shape: one
// "key: value" per line, values unquoted on one line. fastDecode reads that
// shape directly and keeps the text; the yaml.Node is built from it only
// when the topic is written back (Marshal), so what a rewrite keeps is
// exactly what it kept before. Anything outside the shape goes to yaml.

// fastDecode fills t's fields from frontmatter of the plain shape and
// reports whether it could. When it reports false it has changed nothing,
// and the caller decodes with yaml, which also produces every error: the
// fast path accepts only what yaml decodes to the same fields.
func (t *Topic) fastDecode(yml []byte) bool {
	if len(yml) == 0 || !utf8.Valid(yml) {
		return false
	}
	var f Topic
	seen := make(map[string]bool, 8)
	for rest := yml; len(rest) > 0; {
		var line []byte
		line, rest, _ = cutLine(rest)
		key, value, ok := plainPair(line)
		if !ok || seen[key] {
			return false
		}
		seen[key] = true
		if !f.setPlain(key, value) {
			return false
		}
	}
	if f.Name == "" || f.Description == "" || f.Type == "" {
		return false
	}
	t.Name, t.Description, t.Type = f.Name, f.Description, f.Type
	t.Created, t.Modified, t.Private, t.Expires = f.Created, f.Modified, f.Private, f.Expires
	t.raw = string(yml)
	return true
}

// setPlain decodes a known key's plain value as decode would, and reports
// false for a value decode would reject or read differently. Other keys
// are only kept, in the text.
func (t *Topic) setPlain(key, value string) bool {
	var err error
	switch key {
	case "name":
		t.Name = value
	case "description":
		t.Description = value
	case "type":
		t.Type, err = typesx.Parse(value)
	case "created":
		t.Created, err = parseTime(value)
	case "modified":
		t.Modified, err = parseTime(value)
	case "expires":
		t.Expires, err = parseDate(value)
	case "private":
		switch value {
		case "true":
			t.Private = true
		case "false":
		default:
			return false
		}
	case "tags":
		return false // a list: yaml reads it
	}
	return err == nil
}

// plainPair splits "key: value" where key is a lowercase word and value a
// plain YAML scalar on one line that yaml reads as exactly its text. It is
// deliberately narrower than YAML: quotes, flow collections, anchors, tags,
// comments, block scalars, continuation lines and empty values all fail.
func plainPair(line []byte) (key, value string, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon < 1 || colon+2 >= len(line) || line[colon+1] != ' ' {
		return "", "", false
	}
	k, v := line[:colon], line[colon+2:]
	if k[0] < 'a' || k[0] > 'z' {
		return "", "", false
	}
	for _, c := range k {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return "", "", false
		}
	}
	if !plainScalar(v) {
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

// node returns the frontmatter mapping, parsing the text fastDecode kept
// the first time it is needed.
func (t *Topic) node() (*yaml.Node, error) {
	if t.fm == nil && t.raw != "" {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(t.raw), &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return nil, &ParseError{File: t.File, Line: 2, Msg: "frontmatter: cannot be parsed again"}
		}
		t.fm, t.raw = doc.Content[0], ""
	}
	if t.fm == nil {
		t.fm = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	return t.fm, nil
}
