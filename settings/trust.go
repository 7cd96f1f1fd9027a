package settings

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A repository's own settings file (<root>/.memdir.yaml) is written by
// whoever wrote the repository, so it is untrusted input: a clone from a
// stranger must not be able to make memdir run a command or read and write
// outside the project. The settings that could (see sensitive) are honoured
// from the project layer only when the person has trusted that file's
// current content with `memdir trust`; otherwise they are dropped and one
// warning says how to trust them. The managed, user and local layers, the
// environment and flags are the person's own and always honoured.

// Ignored is a setting of the project file that was not honoured because
// the file is not trusted.
type Ignored struct {
	// Key is the setting, such as "dream.distiller" or "profiles.evil".
	Key string `json:"key"`
	// Line is its line in the project file.
	Line int `json:"line"`
	// Reason says what trusting it would allow, such as "runs a command".
	Reason string `json:"reason"`
}

// The reasons a project setting needs trust.
const (
	reasonCommand = "runs a command"
	reasonImports = "lets instruction files import files outside the project"
	reasonHome    = "moves memdir's home, and with it the user settings"
	reasonDir     = "puts memory outside the project"
	reasonProfile = "reads instruction files outside the project"
	reasonTeam    = "sends notes you capture into the team memory your teammates read"
	reasonEmbed   = "sends your memory to an embedding server"
)

// Digest returns the hex SHA-256 of a settings file's content, the value
// trust records.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// sensitive lists the settings of the project layer d that run a command
// or widen access, given the project root and the user's home directory
// (for "~").
func (d *layerData) sensitive(root, userHome string) []Ignored {
	var out []Ignored
	for _, key := range sortedKeys(d.values) {
		e := d.values[key]
		if reason := sensitiveValue(key, e.value, root, userHome); reason != "" {
			out = append(out, Ignored{Key: key, Line: e.line, Reason: reason})
		}
	}
	for _, m := range d.profiles {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if kn := m.Content[i]; kn.Kind != yaml.ScalarNode || namesPathOutside(m.Content[i+1], 0) {
				out = append(out, Ignored{Key: ProfilesKey + "." + kn.Value, Line: kn.Line, Reason: reasonProfile})
			}
		}
	}
	return out
}

// sensitiveValue returns why key = value needs trust in the project layer,
// or "".
func sensitiveValue(key, value, root, userHome string) string {
	switch key {
	case "dream.distiller":
		if strings.TrimSpace(value) != "" {
			return reasonCommand
		}
	case "context.allow_outside_imports":
		if b, _ := parseBool(value); b {
			return reasonImports
		}
	case "home":
		return reasonHome
	case "capture.team_types":
		if strings.Trim(strings.TrimSpace(value), "[]") != "" {
			return reasonTeam
		}
	case "dir":
		if value != "" && !insideRoot(root, resolvePath(value, root, userHome)) {
			return reasonDir
		}
	case "embeddings.url", "embeddings.api_key_env":
		if strings.TrimSpace(value) != "" {
			return reasonEmbed
		}
	}
	return ""
}

// resolvePath makes a path setting absolute the way Settings.Path does for
// file layers: "~" is the user's home, a relative path is under root.
func resolvePath(p, root, userHome string) string {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		if userHome == "" {
			return p
		}
		p = filepath.Join(userHome, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return filepath.Clean(p)
}

// insideRoot reports whether p, with the symbolic links of its existing
// part resolved, is root or below it. root is already resolved.
func insideRoot(root, p string) bool {
	if root == "" || !filepath.IsAbs(p) {
		return false
	}
	resolved := evalExisting(p)
	rel, err := filepath.Rel(root, resolved)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// evalExisting resolves the symbolic links of the longest existing prefix
// of the absolute path p and appends the rest unchanged.
func evalExisting(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// namesPathOutside reports whether a profile's YAML holds a value that
// names a path outside the project: absolute, under "~", under
// "{managed}", or climbing out with "..". A profile is data in the format
// package instructions owns; this looks only at its strings, so a new path
// key cannot slip past.
func namesPathOutside(n *yaml.Node, depth int) bool {
	if n == nil || depth > 16 {
		return n != nil
	}
	n = resolveAlias(n)
	if n.Kind == yaml.ScalarNode {
		return pathOutside(n.Value)
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			continue // keys are names, not paths
		}
		if namesPathOutside(c, depth+1) {
			return true
		}
	}
	return false
}

func pathOutside(v string) bool {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return false
	case strings.HasPrefix(v, "~"), strings.HasPrefix(v, "/"), strings.HasPrefix(v, `\`),
		strings.Contains(v, "{managed}"), filepath.IsAbs(v), filepath.VolumeName(v) != "":
		return true
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return true
		}
	}
	return false
}

// untrustedNotice is the one warning line for a project file whose
// sensitive settings were ignored.
func untrustedNotice(file string, ignored []Ignored) Warning {
	keys := make([]string, 0, len(ignored))
	for _, ig := range ignored {
		keys = append(keys, ig.Key)
	}
	sort.Strings(keys)
	return Warning{File: file, Untrusted: true, Message: fmt.Sprintf(
		"not trusted, so %s (commands or paths outside the project) %s ignored; review the file, then run `memdir trust`",
		strings.Join(keys, ", "), plural(len(keys), "is", "are"))}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
