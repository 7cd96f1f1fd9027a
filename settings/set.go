package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
)

// CheckScope reports whether key may be written to the settings file of
// layer: only user, project and local files are written, and home cannot
// live in the user file (memdir finds that file through home).
func CheckScope(layer Layer, key string) error {
	if _, ok := byKey()[key]; !ok {
		return &UnknownKeyError{Key: key}
	}
	if layer != User && layer != Project && layer != Local {
		return fmt.Errorf("scope %s: use user, project or local", layer)
	}
	if layer == User && key == "home" {
		return errors.New("home cannot be set in the user settings file, which lives in home: use --scope project or local, or MEMDIR_HOME")
	}
	return nil
}

// Set writes key = value into the settings file at path, creating the file
// and its directory if missing. Every other key, comment and the order are
// kept. A key already present (nested or dotted) is updated in place; a new
// dotted key is written nested (`dream:` then `  schedule: ...`) unless the
// file already writes that group dotted. Bools and numbers are written
// plain, strings quoted when YAML needs it. Set does not check locks: see
// Settings.Locked.
func Set(path, key, value string) error {
	v, err := normalize(key, value)
	if err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	// Concurrent sets of different keys must all land: read, change and
	// write under the lock of the file's directory.
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	defer unlock()
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("set %s: %w", key, err)
	}
	out, err := setBytes(path, data, key, v)
	if err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	return atomicfile.WriteFile(path, out, 0o644)
}

// setBytes returns data with key set to the already normalized value v.
func setBytes(path string, data []byte, key, v string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(path, err)
	}
	var prefix []byte
	if doc.Kind == 0 || len(doc.Content) == 0 {
		// Empty or comment-only: keep the text, add a document after it.
		prefix = bytes.Clone(data)
		if len(prefix) > 0 && !bytes.HasSuffix(prefix, []byte("\n")) {
			prefix = append(prefix, '\n')
		}
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		*root = yaml.Node{Kind: yaml.MappingNode, HeadComment: root.HeadComment, FootComment: root.FootComment}
	}
	if root.Kind != yaml.MappingNode {
		return nil, &SyntaxError{File: path, Line: root.Line, Message: "settings file must be a mapping of keys to values"}
	}
	found, err := updateExisting(root, key, key, v)
	if err != nil {
		return nil, err
	}
	if !found {
		insert(root, key, v)
	}
	spellFlowNulls(&doc, false)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("encode %s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode %s: %w", path, err)
	}
	if len(prefix) > 0 {
		// Keep the old text only if the result still reads as a mapping
		// (a UTF-16 byte-order mark, say, would make it unreadable).
		withPrefix := append(prefix, buf.Bytes()...)
		var check yaml.Node
		if yaml.Unmarshal(withPrefix, &check) == nil && len(check.Content) == 1 && check.Content[0].Kind == yaml.MappingNode {
			return withPrefix, nil
		}
	}
	return buf.Bytes(), nil
}

// spellFlowNulls writes out the empty nulls inside flow collections
// (`{key}` or `{key: }`) as "null": the encoder would write them as ”,
// an empty string, which no longer loads where a key wants a boolean.
func spellFlowNulls(n *yaml.Node, inFlow bool) {
	inFlow = inFlow || n.Style&yaml.FlowStyle != 0
	if inFlow && n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" {
		n.Value = "null"
	}
	for _, c := range n.Content {
		spellFlowNulls(c, inFlow)
	}
}

// updateExisting sets every occurrence of key in root, dotted or nested,
// and reports whether there was one. rel is key without the prefixes of
// the mappings already entered.
func updateExisting(root *yaml.Node, key, rel, v string) (bool, error) {
	found := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, vn := root.Content[i], root.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			continue
		}
		switch {
		case kn.Value == rel && vn.Kind == yaml.MappingNode && isPrefix(key):
			return false, fmt.Errorf("%s holds nested settings in this file: write them dotted (%s.x: ...) first", key, key)
		case kn.Value == rel:
			setScalar(vn, key, v)
			found = true
		case strings.HasPrefix(rel, kn.Value+".") && vn.Kind == yaml.MappingNode:
			sub, err := updateExisting(vn, key, strings.TrimPrefix(rel, kn.Value+"."), v)
			if err != nil {
				return false, err
			}
			found = found || sub
		}
	}
	return found, nil
}

// setScalar turns n into the scalar for key = v, keeping its comments.
func setScalar(n *yaml.Node, key, v string) {
	fresh := newScalar(key, v)
	quoted := n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0
	n.Kind, n.Tag, n.Value, n.Style = fresh.Kind, fresh.Tag, v, 0
	n.Content, n.Alias, n.Anchor = nil, nil, ""
	if quoted && fresh.Tag == "!!str" {
		n.Style = yaml.DoubleQuotedStyle
	}
}

// newScalar builds the node for key = v: bools and numbers plain, other
// kinds as strings (quoted by the encoder when plain would misread).
func newScalar(key, v string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: "!!str"}
	switch byKey()[key].Kind {
	case KindBool:
		n.Tag = "!!bool"
	case KindNumber:
		n.Tag = ""
	}
	return n
}

// insert adds key = v to root: into an existing nested group, dotted when
// the group cannot nest or the file already writes it dotted, else as a
// new nested group at the end.
func insert(root *yaml.Node, key, v string) {
	group, rest, dotted := strings.Cut(key, ".")
	if !dotted {
		appendPair(root, key, newScalar(key, v))
		return
	}
	useDotted := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, vn := root.Content[i], root.Content[i+1]
		switch {
		case kn.Value == group && vn.Kind == yaml.MappingNode:
			appendPair(vn, rest, newScalar(key, v))
			return
		case kn.Value == group, strings.HasPrefix(kn.Value, group+"."):
			useDotted = true
		}
	}
	if useDotted {
		appendPair(root, key, newScalar(key, v))
		return
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	appendPair(m, rest, newScalar(key, v))
	appendPair(root, group, m)
}

func appendPair(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}
