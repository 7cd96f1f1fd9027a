package memdir

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/typesx"
)

// Topic is one memory: a markdown file with YAML frontmatter.
//
// The frontmatter is kept as a yaml.Node, so keys and comments that an agent
// or a person added survive every rewrite, in their order. The exported
// fields are memdir's view of the keys it understands; Marshal writes them
// back into that node.
type Topic struct {
	File        string // base name, e.g. feedback_testing_policy.md
	Name        string
	Description string
	Type        typesx.Type
	Created     time.Time
	Modified    time.Time
	Private     bool
	Expires     string // a date, YYYY-MM-DD; "" when the topic does not expire
	Tags        []string
	Body        string // the markdown after the frontmatter

	fm         *yaml.Node // the frontmatter mapping, nil for a new topic
	raw        string     // frontmatter text read by fastDecode, parsed into fm on Marshal
	typeNested bool       // the type was read from metadata.type (Claude Code's layout)
	modNested  bool       // modified was read from metadata.modified, which wins
}

// ParseError is a malformed topic file: the line (1-based, in the file) and
// what was wrong.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	where := e.File
	if where == "" {
		where = "topic"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", where, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", where, e.Msg)
}

// knownKeys are the frontmatter keys memdir writes, in the order a new
// topic gets them.
var knownKeys = []string{"name", "description", "type", "created", "modified", "private", "expires", "tags"}

// metadataKey is the block Claude Code's current layout nests the type in:
// "metadata:" / "  type: feedback". Claude Code reads a type there first,
// then a top-level type; so does memdir.
const metadataKey = "metadata"

// splitFrontmatter returns the YAML and the body through the one splitter,
// as a *ParseError on line 1 when there is no closed frontmatter.
func splitFrontmatter(data []byte) (yml, body []byte, err error) {
	yml, body, err = frontmatter.Split(data)
	if err != nil {
		return nil, nil, &ParseError{Line: 1, Msg: err.Error()}
	}
	return yml, body, nil
}

// ParseTopic parses a topic file. file names it in errors, which are
// *ParseError values carrying the line.
func ParseTopic(file string, data []byte) (*Topic, error) {
	yml, body, err := splitFrontmatter(data)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.File = file
		}
		return nil, err
	}
	t := &Topic{File: file, Body: strings.TrimLeft(string(body), "\r\n")}
	if t.fastDecode(yml) {
		return t, nil
	}
	if err := t.decodeYAML(yml); err != nil {
		return nil, err
	}
	return t, nil
}

// decodeYAML parses the frontmatter into a yaml.Node, keeps it for
// Marshal and fills the known fields from it.
func (t *Topic) decodeYAML(yml []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(yml, &doc); err != nil {
		return &ParseError{File: t.File, Line: yamlErrLine(err) + 1, Msg: "frontmatter: " + yamlErrMsg(err)}
	}
	if len(doc.Content) == 0 {
		return &ParseError{File: t.File, Line: 2, Msg: "frontmatter is empty: it needs name, description and type"}
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return &ParseError{File: t.File, Line: m.Line + 1, Msg: "frontmatter is not a mapping of keys to values"}
	}
	t.fm = m
	return t.decode(m)
}

// decode fills the known fields from the mapping and checks them.
func (t *Topic) decode(m *yaml.Node) error {
	bad := func(n *yaml.Node, format string, a ...any) error {
		return &ParseError{File: t.File, Line: n.Line + 1, Msg: fmt.Sprintf(format, a...)}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch k.Value {
		case "name", "description", "type", "created", "modified", "expires":
			if v.Kind != yaml.ScalarNode {
				return bad(v, "%s must be a single value", k.Value)
			}
		}
		var err error
		switch k.Value {
		case "name":
			t.Name = strings.TrimSpace(v.Value)
		case "description":
			t.Description = strings.TrimSpace(v.Value)
		case "type":
			var typ typesx.Type
			typ, err = typesx.Parse(v.Value)
			if !t.typeNested {
				t.Type = typ
			}
		case "created":
			t.Created, err = parseTime(v.Value)
		case "modified":
			if !t.modNested {
				t.Modified, err = parseTime(v.Value)
			}
		case "private":
			err = v.Decode(&t.Private)
		case "expires":
			t.Expires, err = parseDate(v.Value)
		case "tags":
			t.Tags, err = decodeTags(v)
		case metadataKey:
			err = t.decodeMetadata(v, bad)
		}
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return bad(v, "%s: %v", k.Value, err)
		}
	}
	switch {
	case t.Name == "":
		return bad(m, "frontmatter needs a name")
	case t.Description == "":
		return bad(m, "frontmatter needs a description")
	case t.Type == "":
		return bad(m, "frontmatter needs a type (one of %s)", typesx.Names())
	}
	return nil
}

// decodeMetadata reads the type and the modified stamp nested in a
// metadata mapping; each wins over a top-level one, as in Claude Code. Other metadata keys, and a
// metadata value that is not a mapping, are only kept.
func (t *Topic) decodeMetadata(v *yaml.Node, bad func(*yaml.Node, string, ...any) error) error {
	if v.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if v.Content[i].Value == "modified" && v.Content[i+1].Kind == yaml.ScalarNode {
			// Claude Code stamps metadata.modified and reads it first.
			if m, err := parseTime(v.Content[i+1].Value); err == nil {
				t.Modified, t.modNested = m, true
			}
			continue
		}
		if v.Content[i].Value != "type" {
			continue
		}
		tv := v.Content[i+1]
		if tv.Kind != yaml.ScalarNode {
			return bad(tv, "metadata.type must be a single value")
		}
		typ, err := typesx.Parse(tv.Value)
		if err != nil {
			return bad(tv, "metadata.type: %v", err)
		}
		t.Type, t.typeNested = typ, true
	}
	return nil
}

func decodeTags(v *yaml.Node) ([]string, error) {
	switch v.Kind {
	case yaml.SequenceNode:
		var tags []string
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, errors.New("tags must be a list of words")
			}
			tags = append(tags, c.Value)
		}
		return tags, nil
	case yaml.ScalarNode:
		var tags []string
		for _, f := range strings.FieldsFunc(v.Value, func(r rune) bool { return r == ',' || r == ' ' }) {
			tags = append(tags, f)
		}
		return tags, nil
	}
	return nil, errors.New("tags must be a list of words")
}

func parseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an RFC 3339 time", s)
}

func parseDate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if len(s) >= 10 {
		if _, err := time.Parse(time.DateOnly, s[:10]); err == nil {
			return s[:10], nil
		}
	}
	return "", fmt.Errorf("%q is not a date like 2026-12-01", s)
}

// yamlErrLine digs the line out of a yaml error ("yaml: line 3: ...").
func yamlErrLine(err error) int {
	var n int
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		fmt.Sscanf(msg[i+5:], "%d", &n)
	}
	return n
}

func yamlErrMsg(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "line ") && i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

// Expired reports whether the topic has an expires date before now's date.
func (t *Topic) Expired(now time.Time) bool {
	return t.Expires != "" && t.Expires < now.Format(time.DateOnly)
}

// Marshal renders the topic file: frontmatter with the known keys updated in
// place and every other key kept, then a blank line and the body.
func (t *Topic) Marshal() ([]byte, error) {
	if _, err := t.node(); err != nil {
		return nil, err
	}
	t.setStr("name", t.Name)
	t.setStr("description", t.Description)
	t.setType()
	t.setTime("created", t.Created)
	t.setTime("modified", t.Modified)
	t.setClaudeModified()
	if t.Private {
		t.set("private", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	} else {
		t.del("private")
	}
	if t.Expires != "" {
		t.set("expires", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t.Expires})
	} else {
		t.del("expires")
	}
	t.setTags()
	dashed := quoteDashes(t.fm)
	var fm bytes.Buffer
	enc := yaml.NewEncoder(&fm)
	enc.SetIndent(2)
	if err := enc.Encode(t.fm); err != nil {
		return nil, fmt.Errorf("%s: encode frontmatter: %w", t.File, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("%s: encode frontmatter: %w", t.File, err)
	}
	text := fm.String()
	if dashed {
		text = strings.ReplaceAll(text, "---", `-\x2D-`)
	}
	var buf bytes.Buffer
	buf.WriteString("---\n")
	buf.WriteString(text)
	buf.WriteString("---\n\n")
	body := strings.TrimRight(t.Body, "\n\r\t ")
	if body != "" {
		buf.WriteString(body)
		buf.WriteString("\n")
	}
	return buf.Bytes(), nil
}

// quoteDashes double-quotes every scalar of n that holds "---" and reports
// whether there was one. Claude Code ends frontmatter at the first "---"
// anywhere in it, even inside a value, and would lose the keys after it;
// Marshal then writes each "---" as "-\x2D-", a YAML escape inside double
// quotes that reads back as the same text.
func quoteDashes(n *yaml.Node) bool {
	found := false
	if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "---") {
		n.Style, found = yaml.DoubleQuotedStyle, true
	}
	for _, c := range n.Content {
		found = quoteDashes(c) || found
	}
	return found
}

func (t *Topic) setStr(key, val string) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: val}
	if old := t.lookup(key); old != nil && old.Kind == yaml.ScalarNode {
		if old.Value == val {
			return
		}
		n.Style = old.Style &^ (yaml.LiteralStyle | yaml.FoldedStyle)
		if strings.Contains(val, "\n") {
			n.Style = 0
		}
	}
	t.set(key, n)
}

// setType writes the type where the file keeps it: under metadata in
// Claude Code's layout (and at the top too when the file has both), else at
// the top.
func (t *Topic) setType() {
	if !t.typeNested {
		t.setStr("type", string(t.Type))
		return
	}
	if m := t.lookup(metadataKey); m != nil && m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "type" && m.Content[i+1].Value != string(t.Type) {
				m.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: string(t.Type),
					Style: m.Content[i+1].Style &^ (yaml.LiteralStyle | yaml.FoldedStyle), LineComment: m.Content[i+1].LineComment}
			}
		}
	}
	if t.lookup("type") != nil {
		t.setStr("type", string(t.Type))
	}
}

func (t *Topic) setTime(key string, v time.Time) {
	if v.IsZero() {
		return
	}
	val := v.UTC().Format(time.RFC3339)
	if old := t.lookup(key); old != nil && old.Kind == yaml.ScalarNode {
		if prev, err := parseTime(old.Value); err == nil && prev.Equal(v) {
			return
		}
	}
	t.set(key, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: val})
}

// claudeStamp is the layout of the stamp Claude Code (2.1.214 on) writes
// as metadata.modified: JavaScript's toISOString, UTC with milliseconds.
const claudeStamp = "2006-01-02T15:04:05.000Z"

// setClaudeModified updates the modified stamp Claude Code keeps in the
// metadata block, when the file has one, to t.Modified in Claude's layout:
// Claude reads metadata.modified before a top-level modified, so a rewrite
// that left it would leave Claude an older date than memdir's. The stamp
// stays where Claude put it, with its comments; memdir adds none.
func (t *Topic) setClaudeModified() {
	m := t.lookup(metadataKey)
	if t.Modified.IsZero() || m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		old := m.Content[i+1]
		if m.Content[i].Value != "modified" || old.Kind != yaml.ScalarNode {
			continue
		}
		if prev, err := parseTime(old.Value); err == nil && prev.Equal(t.Modified) {
			continue
		}
		m.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: t.Modified.UTC().Format(claudeStamp),
			Style: old.Style &^ (yaml.LiteralStyle | yaml.FoldedStyle), LineComment: old.LineComment}
	}
}

func (t *Topic) setTags() {
	if len(t.Tags) == 0 {
		t.del("tags")
		return
	}
	if old := t.lookup("tags"); old != nil {
		if cur, err := decodeTags(old); err == nil && slicesEqual(cur, t.Tags) {
			return
		}
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, tag := range t.Tags {
		seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: tag})
	}
	t.set("tags", seq)
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (t *Topic) lookup(key string) *yaml.Node {
	for i := 0; i+1 < len(t.fm.Content); i += 2 {
		if t.fm.Content[i].Value == key {
			return t.fm.Content[i+1]
		}
	}
	return nil
}

// set replaces key's value in place, keeping the key's comments, or appends
// the key after the last known key that precedes it.
func (t *Topic) set(key string, v *yaml.Node) {
	for i := 0; i+1 < len(t.fm.Content); i += 2 {
		if t.fm.Content[i].Value == key {
			old := t.fm.Content[i+1]
			v.LineComment, v.HeadComment, v.FootComment = old.LineComment, old.HeadComment, old.FootComment
			t.fm.Content[i+1] = v
			return
		}
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
	t.fm.Content = append(t.fm.Content, k, v)
}

func (t *Topic) del(key string) {
	for i := 0; i+1 < len(t.fm.Content); i += 2 {
		if t.fm.Content[i].Value == key {
			t.fm.Content = append(t.fm.Content[:i], t.fm.Content[i+2:]...)
			return
		}
	}
}
