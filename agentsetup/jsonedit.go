package agentsetup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// jobj is a JSON object whose keys keep the order they are written in.
type jobj []jkv

type jkv struct {
	k string
	v any
}

// jsonDoc is a JSON (or JSON-with-comments) file being edited. Every edit
// splices new text into the source and leaves every other byte alone:
// comments, key order, blank lines and indentation all stay.
type jsonDoc struct {
	path string
	src  string
	root *node
	unit string // one level of indentation, as the file uses it
	nl   string // the file's line ending: "\n", or "\r\n" when it uses CRLF
}

func newJSONDoc(path, src string) (*jsonDoc, error) {
	if strings.TrimSpace(src) == "" {
		src = "{}\n"
	}
	d := &jsonDoc{path: path, src: src, nl: lineEnding(src)}
	if err := d.reparse(); err != nil {
		return nil, err
	}
	if d.root.kind != '{' {
		return nil, &SyntaxError{Path: path, Line: 1, Col: 1, Reason: "the file holds no JSON object"}
	}
	d.unit = indentUnit(d.src, d.root)
	return d, nil
}

func (d *jsonDoc) reparse() error {
	n, err := parseJSONC(d.path, d.src)
	if err != nil {
		return err
	}
	d.root = n
	return nil
}

// splice replaces src[from:to] with text, in the file's line endings, and
// parses the result again.
func (d *jsonDoc) splice(from, to int, text string) error {
	if d.nl != "\n" {
		text = strings.ReplaceAll(text, "\n", d.nl)
	}
	d.src = d.src[:from] + text + d.src[to:]
	if err := d.reparse(); err != nil {
		return fmt.Errorf("%s: memdir's own edit did not parse (a bug): %w", d.path, err)
	}
	return nil
}

// lookup walks object members; it returns nil when a key is missing or a
// value on the way is not an object.
func (d *jsonDoc) lookup(path ...string) *node {
	n := d.root
	for _, k := range path {
		it, _ := n.member(k)
		if it == nil {
			return nil
		}
		n = it.val
	}
	return n
}

// set makes path hold v: it replaces an existing value or inserts the
// missing members, creating the objects on the way.
func (d *jsonDoc) set(v any, path ...string) error {
	n := d.root
	for i, k := range path {
		if n.kind != '{' {
			return d.notObject(path[:i])
		}
		it, _ := n.member(k)
		if it == nil {
			for j := len(path) - 1; j > i; j-- {
				v = jobj{{path[j], v}}
			}
			return d.insert(n, k, v)
		}
		n = it.val
	}
	return d.splice(n.start, n.end, render(v, lineIndent(d.src, n.start), d.unitFor(n.start)))
}

// appendTo adds v at the end of the array at path, creating it if missing.
func (d *jsonDoc) appendTo(v any, path ...string) error {
	n := d.lookup(path...)
	if n == nil {
		return d.set([]any{v}, path...)
	}
	if n.kind != '[' {
		return fmt.Errorf("%s: %s is not a list; fix it by hand (memdir changed nothing)", d.path, strings.Join(path, "."))
	}
	return d.insert(n, "", v)
}

func (d *jsonDoc) notObject(path []string) error {
	name := strings.Join(path, ".")
	if name == "" {
		name = "the top level"
	}
	return fmt.Errorf("%s: %s is not an object; fix it by hand (memdir changed nothing)", d.path, name)
}

// unitFor is the indentation unit, or "" where the container at pos is
// written on one line (an edit there stays on one line).
func (d *jsonDoc) unitFor(pos int) string {
	if _, own := ownLine(d.src, pos); !own {
		return ""
	}
	return d.unit
}

// insert adds a member (key != "") or an element at the end of c.
func (d *jsonDoc) insert(c *node, key string, v any) error {
	prefix := ""
	if c.kind == '{' {
		prefix = quote(key) + ": "
	}
	outer := lineIndent(d.src, c.start)
	if len(c.items) == 0 {
		inner := d.src[c.start+1 : c.end-1]
		child := outer + d.unit
		text := "\n" + child + prefix + render(v, child, d.unit) + "\n" + outer
		if strings.TrimSpace(inner) == "" {
			return d.splice(c.start+1, c.end-1, text)
		}
		return d.splice(c.end-1, c.end-1, text) // keep the comments inside
	}
	last := c.items[len(c.items)-1]
	if ind, own := ownLine(d.src, last.keyStart); own {
		return d.splice(last.val.end, last.val.end, ",\n"+ind+prefix+render(v, ind, d.unit))
	}
	return d.splice(last.val.end, last.val.end, ", "+prefix+render(v, "", ""))
}

// removeItem deletes item i of container c. Text setup inserted comes out
// exactly as it went in, so an undo restores the original bytes.
func (d *jsonDoc) removeItem(c *node, i int) error {
	it := c.items[i]
	end := it.val.end
	switch {
	case len(c.items) == 1:
		rest := d.src[c.start+1:it.keyStart] + d.src[end:c.end-1]
		if it.comma >= 0 {
			rest = d.src[c.start+1:it.keyStart] + d.src[it.comma+1:c.end-1]
		}
		if strings.TrimSpace(rest) == "" {
			return d.splice(c.start+1, c.end-1, "")
		}
		if it.comma >= 0 {
			end = it.comma + 1
		}
		// Comments inside: take the item's own line, and the line break
		// insert put before the closing bracket.
		from := it.keyStart
		if ind, own := ownLine(d.src, from); own && from-len(ind) > c.start+1 {
			from -= len(ind) + 1
			if d.src[from-1] == '\r' {
				from--
			}
		}
		if strings.TrimSpace(d.src[end:c.end-1]) == "" {
			end = c.end - 1
		}
		return d.splice(from, end, "")
	case i > 0:
		prev := c.items[i-1]
		if !hasComment(d.src[prev.val.end:it.keyStart]) {
			return d.splice(prev.val.end, end, "")
		}
		if it.comma >= 0 {
			return d.splice(it.keyStart, it.comma+1, "")
		}
		// The last item, after a comment: drop it and the comma before it.
		text := d.src[prev.comma+1 : it.keyStart]
		return d.splice(prev.comma, end, text)
	default:
		next := c.items[1]
		if !hasComment(d.src[end:next.keyStart]) {
			return d.splice(it.keyStart, next.keyStart, "")
		}
		return d.splice(it.keyStart, it.comma+1, "")
	}
}

// lineEnding is "\r\n" for a file that uses CRLF, else "\n".
func lineEnding(src string) string {
	if strings.Contains(src, "\r\n") || strings.HasSuffix(src, "\r") {
		return "\r\n"
	}
	return "\n"
}

// hasComment reports whether the text between two items holds more than
// white space and commas.
func hasComment(s string) bool {
	return strings.Trim(s, " \t\r\n,") != ""
}

// ownLine returns the white space in front of pos when nothing else
// precedes it on its line.
func ownLine(src string, pos int) (string, bool) {
	start := strings.LastIndexByte(src[:pos], '\n') + 1
	ind := src[start:pos]
	return ind, strings.Trim(ind, " \t") == ""
}

// lineIndent is the leading white space of the line holding pos.
func lineIndent(src string, pos int) string {
	start := strings.LastIndexByte(src[:pos], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return src[start:end]
}

// indentUnit guesses one level of indentation from the first member of
// the top-level object written on its own line; two spaces otherwise.
func indentUnit(src string, root *node) string {
	for _, it := range root.items {
		if ind, own := ownLine(src, it.keyStart); own && ind != "" {
			return strings.TrimPrefix(ind, lineIndent(src, root.start))
		}
	}
	return "  "
}

// render writes v as JSON at the given indentation: objects one member a
// line, lists of plain values on one line. An empty unit writes it all on
// one line.
func render(v any, indent, unit string) string {
	switch x := v.(type) {
	case jobj:
		parts := make([]string, len(x))
		for i, kv := range x {
			parts[i] = quote(kv.k) + ": " + render(kv.v, indent+unit, unit)
		}
		return wrap("{", "}", parts, true, indent, unit)
	case []any:
		flat := true
		parts := make([]string, len(x))
		for i, e := range x {
			if _, ok := e.(jobj); ok {
				flat = false
			}
			parts[i] = render(e, indent+unit, unit)
		}
		return wrap("[", "]", parts, !flat, indent, unit)
	case string:
		return quote(x)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	}
	panic(fmt.Sprintf("render: unexpected %T", v))
}

// wrap joins rendered parts between brackets, one a line when broken is
// set and the rendering is not on one line.
func wrap(open, closing string, parts []string, broken bool, indent, unit string) string {
	if len(parts) == 0 {
		return open + closing
	}
	if !broken || unit == "" {
		return open + strings.Join(parts, ", ") + closing
	}
	inner := "\n" + indent + unit
	return open + inner + strings.Join(parts, ","+inner) + "\n" + indent + closing
}

// quote writes s as a JSON string, leaving <, > and & as they are.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
