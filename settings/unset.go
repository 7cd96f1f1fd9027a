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

// Unset removes key from the settings file at path, dotted or nested,
// keeping every other key, comment and the order; a nested group left
// empty goes too. It reports whether the file held the key; a missing file
// holds none and is not created.
func Unset(path, key string) (bool, error) {
	if _, ok := byKey()[key]; !ok {
		return false, &UnknownKeyError{Key: key}
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		return false, fmt.Errorf("unset %s: %w", key, err)
	}
	defer unlock()
	data, err := untrusted.ReadFile(path, "", untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("unset %s: %w", key, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return false, yamlError(path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false, nil
	}
	if !removeKey(doc.Content[0], key) {
		return false, nil
	}
	var buf bytes.Buffer
	if len(doc.Content[0].Content) > 0 || doc.Content[0].HeadComment != "" {
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(&doc); err != nil {
			return false, fmt.Errorf("encode %s: %w", path, err)
		}
		if err := enc.Close(); err != nil {
			return false, fmt.Errorf("encode %s: %w", path, err)
		}
	}
	if strings.TrimSpace(buf.String()) == "{}" {
		buf.Reset()
	}
	return true, atomicfile.WriteFile(path, buf.Bytes(), 0o644)
}

// removeKey deletes every occurrence of key (rel, below the mappings
// entered) from m and reports whether there was one.
func removeKey(m *yaml.Node, rel string) bool {
	found := false
	for i := 0; i+1 < len(m.Content); {
		kn, vn := m.Content[i], m.Content[i+1]
		switch {
		case kn.Kind == yaml.ScalarNode && kn.Value == rel:
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			found = true
			continue
		case kn.Kind == yaml.ScalarNode && strings.HasPrefix(rel, kn.Value+".") && vn.Kind == yaml.MappingNode:
			if removeKey(vn, strings.TrimPrefix(rel, kn.Value+".")) {
				found = true
				if len(vn.Content) == 0 {
					m.Content = append(m.Content[:i], m.Content[i+2:]...)
					continue
				}
			}
		}
		i += 2
	}
	return found
}
