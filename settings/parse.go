package settings

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/internal/lazyre"
)

// lockedKey is the managed file's list of locked keys.
const lockedKey = "locked"

// entry is one value set by one layer.
type entry struct {
	value string
	line  int
}

// layerData is what one layer sets.
type layerData struct {
	layer    Layer
	file     string
	values   map[string]entry
	profiles []*yaml.Node // mapping nodes, in file order
	locked   map[string]entry
	warnings []Warning
	// raw is the file's content, which trust is recorded against.
	raw []byte
}

func newLayerData(layer Layer, file string) *layerData {
	return &layerData{layer: layer, file: file, values: map[string]entry{}}
}

var yamlLineRE = lazyre.New(`^yaml: line (\d+): (.*)$`)

// parseFile decodes a settings file. Empty and comment-only files set
// nothing. Unknown keys become warnings; invalid values an *InvalidError.
func parseFile(layer Layer, file string, data []byte) (*layerData, error) {
	d := newLayerData(layer, file)
	d.raw = data
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(file, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return d, nil
	}
	root := resolveAlias(doc.Content[0])
	switch {
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		return d, nil
	case root.Kind != yaml.MappingNode:
		return nil, &SyntaxError{File: file, Line: root.Line, Message: "settings file must be a mapping of keys to values"}
	}
	if err := d.walk(root, ""); err != nil {
		return nil, err
	}
	return d, nil
}

func yamlError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLineRE().FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	return &SyntaxError{File: file, Line: line, Message: "invalid YAML: " + msg, Err: err}
}

// resolveAlias follows an alias to the node it names.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 8; i++ {
		n = n.Alias
	}
	return n
}

// walk reads the pairs of mapping m, whose keys all start with prefix.
// Recursion only follows known prefixes, so it is at most two deep.
func (d *layerData) walk(m *yaml.Node, prefix string) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, vn := m.Content[i], resolveAlias(m.Content[i+1])
		if kn.Kind != yaml.ScalarNode {
			d.warn(kn.Line, "ignored a key that is not a plain name")
			continue
		}
		key := prefix + kn.Value
		if err := d.pair(key, kn, vn); err != nil {
			return err
		}
	}
	return nil
}

func (d *layerData) pair(key string, kn, vn *yaml.Node) error {
	k, known := byKey()[key]
	switch {
	case key == lockedKey && d.layer == Managed:
		d.readLocked(vn)
		return nil
	case key == lockedKey:
		d.warn(kn.Line, "locked is honoured only in the managed settings file; ignored")
		return nil
	case known && k.Kind == KindStructured:
		if vn.Kind != yaml.MappingNode {
			return d.invalid(k, vn, "expected a mapping")
		}
		d.profiles = append(d.profiles, vn)
		return nil
	case vn.Kind == yaml.MappingNode && isPrefix(key):
		return d.walk(vn, key+".")
	case !known:
		d.warn(kn.Line, (&UnknownKeyError{Key: key}).Error())
		return nil
	}
	if vn.Kind == yaml.SequenceNode && k.Kind == KindTypes {
		return d.typeList(k, vn)
	}
	if vn.Kind != yaml.ScalarNode {
		return d.invalid(k, vn, "expected a single value, not a "+kindWord(vn))
	}
	if vn.Tag == "!!null" {
		return nil // "key:" with no value leaves the key unset in this layer
	}
	v, ok := normalizeKind(k, vn.Value)
	if !ok {
		return &InvalidError{File: d.file, Line: vn.Line, Key: key, Value: vn.Value, Allowed: k.Allowed}
	}
	d.values[key] = entry{value: v, line: vn.Line}
	return nil
}

// typeList reads a YAML list of memory types, such as
// capture.team_types: [project, reference].
func (d *layerData) typeList(k *KeyInfo, vn *yaml.Node) error {
	items := make([]string, 0, len(vn.Content))
	for _, it := range vn.Content {
		it = resolveAlias(it)
		if it.Kind != yaml.ScalarNode {
			return d.invalid(k, it, "expected a list of memory types")
		}
		items = append(items, it.Value)
	}
	v, ok := normalizeKind(k, strings.Join(items, ","))
	if !ok {
		return &InvalidError{File: d.file, Line: vn.Line, Key: k.Key, Value: strings.Join(items, ", "), Allowed: k.Allowed}
	}
	d.values[k.Key] = entry{value: v, line: vn.Line}
	return nil
}

func (d *layerData) readLocked(vn *yaml.Node) {
	if d.locked == nil {
		d.locked = map[string]entry{}
	}
	items := []*yaml.Node{vn}
	if vn.Kind == yaml.SequenceNode {
		items = vn.Content
	}
	for _, it := range items {
		it = resolveAlias(it)
		if it.Kind != yaml.ScalarNode || it.Tag == "!!null" {
			d.warn(it.Line, "locked: expected a list of setting names")
			continue
		}
		if _, ok := byKey()[it.Value]; !ok {
			d.warn(it.Line, "locked: "+(&UnknownKeyError{Key: it.Value}).Error())
			continue
		}
		d.locked[it.Value] = entry{line: it.Line}
	}
}

// drop removes the ignored settings from the layer: values by key, and
// profiles (keys "profiles.NAME") from their mappings.
func (d *layerData) drop(ignored []Ignored) {
	gone := map[string]bool{}
	for _, ig := range ignored {
		gone[ig.Key] = true
		delete(d.values, ig.Key)
	}
	for i, m := range d.profiles {
		kept := &yaml.Node{Kind: yaml.MappingNode, Line: m.Line}
		for j := 0; j+1 < len(m.Content); j += 2 {
			if kn := m.Content[j]; kn.Kind == yaml.ScalarNode && !gone[ProfilesKey+"."+kn.Value] {
				kept.Content = append(kept.Content, kn, m.Content[j+1])
			}
		}
		d.profiles[i] = kept
	}
}

func (d *layerData) warn(line int, msg string) {
	d.warnings = append(d.warnings, Warning{File: d.file, Line: line, Message: msg})
}

func (d *layerData) invalid(k *KeyInfo, vn *yaml.Node, reason string) error {
	return &InvalidError{File: d.file, Line: vn.Line, Key: k.Key, Reason: reason, Allowed: k.Allowed}
}

func kindWord(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return fmt.Sprintf("node of kind %d", n.Kind)
}
