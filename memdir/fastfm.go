package memdir

import (
	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/typesx"
)

// Reading frontmatter through yaml.Node costs tens of microseconds a file,
// most of `memdir list` over 10,000 topics. Nearly every topic file, by
// memdir or by Claude Code, has frontmatter of the plain shape
// frontmatter.Plain reads (Claude Code's current layout nests the type as
// "metadata:" / "  type: user", which that shape includes). fastDecode
// reads that shape and keeps the text; the yaml.Node is built from it only
// when the topic is written back (Marshal), so what a rewrite keeps is
// exactly what it kept before. Anything outside the shape goes to yaml.

// fastDecode fills t's fields from frontmatter of the plain shape and
// reports whether it could. When it reports false it has changed nothing,
// and the caller decodes with yaml, which also produces every error: the
// fast path accepts only what yaml decodes to the same fields.
func (t *Topic) fastDecode(yml []byte) bool {
	pairs, ok := frontmatter.Plain(yml)
	if !ok {
		return false
	}
	var f Topic
	for _, p := range pairs {
		if !f.setPlain(p) {
			return false
		}
	}
	if f.Name == "" || f.Description == "" || f.Type == "" {
		return false
	}
	t.Name, t.Description, t.Type, t.typeNested, t.modNested = f.Name, f.Description, f.Type, f.typeNested, f.modNested
	t.Created, t.Modified, t.Private, t.Expires = f.Created, f.Modified, f.Private, f.Expires
	t.raw = string(yml)
	return true
}

// setPlain decodes a known key's plain value as decode would, and reports
// false for a value decode would reject or read differently. Other keys
// are only kept, in the text.
func (t *Topic) setPlain(p frontmatter.Pair) bool {
	if p.Nested != nil {
		if p.Key != metadataKey {
			return true
		}
		ok := true
		for _, n := range p.Nested {
			switch n.Key {
			case "type":
				typ, err := typesx.Parse(n.Value)
				t.Type, t.typeNested = typ, true
				ok = ok && err == nil
			case "modified":
				// Claude Code stamps metadata.modified and reads it first;
				// a stamp that does not parse is left to the slow path.
				m, err := parseTime(n.Value)
				t.Modified, t.modNested = m, true
				ok = ok && err == nil
			}
		}
		return ok
	}
	var err error
	switch p.Key {
	case "name":
		t.Name = p.Value
	case "description":
		t.Description = p.Value
	case "type":
		if !t.typeNested {
			t.Type, err = typesx.Parse(p.Value)
		} else {
			_, err = typesx.Parse(p.Value)
		}
	case "created":
		t.Created, err = parseTime(p.Value)
	case "modified":
		if !t.modNested {
			t.Modified, err = parseTime(p.Value)
		} else {
			_, err = parseTime(p.Value)
		}
	case "expires":
		t.Expires, err = parseDate(p.Value)
	case "private":
		switch p.Value {
		case "true":
			t.Private = true
		case "false":
		default:
			return false
		}
	case "tags", metadataKey:
		return false // a list, or a metadata value that is not a block: yaml reads it
	}
	return err == nil
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
