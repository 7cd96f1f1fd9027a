package instructions

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/frontmatter"
)

// Frontmatter holds the keys memdir understands at the top of a rule, an
// imported file or a SKILL.md.
type Frontmatter struct {
	// Paths, Globs and ApplyTo (Claude Code, Cursor/Amp, Copilot) limit a
	// file to matching paths; "!" marks an exclusion.
	Paths   PatternList `yaml:"paths"`
	Globs   PatternList `yaml:"globs"`
	ApplyTo PatternList `yaml:"applyTo"`
	// AlwaysApply loads the file whatever its patterns say.
	AlwaysApply bool `yaml:"alwaysApply"`
	// Name and Description describe a skill.
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// PatternList is a list of glob patterns written either as a YAML list or as
// one comma-separated string.
type PatternList []string

// UnmarshalYAML accepts a string or a list of strings.
func (l *PatternList) UnmarshalYAML(n *yaml.Node) error {
	var raw []string
	switch n.Kind {
	case yaml.ScalarNode:
		raw = splitTopLevel(n.Value)
	case yaml.SequenceNode:
		if err := n.Decode(&raw); err != nil {
			return err
		}
	default:
		return fmt.Errorf("line %d: want a pattern or a list of patterns", n.Line)
	}
	*l = nil
	for _, p := range raw {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// Patterns returns every pattern from Paths, Globs and ApplyTo.
func (fm Frontmatter) Patterns() []string {
	var out []string
	out = append(out, fm.Paths...)
	out = append(out, fm.Globs...)
	return append(out, fm.ApplyTo...)
}

// Applies reports whether a file with this frontmatter loads for the given
// files (slash-separated, relative to the project root). With no patterns or
// alwaysApply it always loads; with only exclusions it loads unless every
// file is excluded; otherwise some file must match an inclusion and no
// exclusion.
func (fm Frontmatter) Applies(files []string) bool {
	return applies(fm.Patterns(), fm.AlwaysApply, files)
}

func applies(pats []string, always bool, files []string) bool {
	if always || len(pats) == 0 {
		return true
	}
	var inc, exc []string
	for _, p := range pats {
		if rest, ok := strings.CutPrefix(p, "!"); ok {
			exc = append(exc, rest)
		} else {
			inc = append(inc, p)
		}
	}
	if len(inc) == 0 && len(files) == 0 {
		return true
	}
	for _, f := range files {
		if matchAny(exc, f) {
			continue
		}
		if len(inc) == 0 || matchAny(inc, f) {
			return true
		}
	}
	return false
}

func matchAny(pats []string, name string) bool {
	for _, p := range pats {
		if MatchGlob(p, name) {
			return true
		}
	}
	return false
}

// ParseFrontmatter splits data into its YAML frontmatter and the body after
// it. Frontmatter starts on the first line with "---" and ends at the next
// line that is "---" or "..."; without both, ok is false and body is data.
// A frontmatter block that is not valid YAML returns an error along with the
// body.
func ParseFrontmatter(data []byte) (fm Frontmatter, body []byte, ok bool, err error) {
	block, body, ok := splitFrontmatter(data)
	if !ok {
		return Frontmatter{}, data, false, nil
	}
	if len(bytes.TrimSpace(block)) == 0 {
		return Frontmatter{}, body, true, nil
	}
	if err := yaml.Unmarshal(block, &fm); err != nil {
		return Frontmatter{}, body, true, fmt.Errorf("frontmatter: %w", err)
	}
	return fm, body, true, nil
}

// splitFrontmatter is frontmatter.Split with ok in place of its errors.
func splitFrontmatter(data []byte) (block, body []byte, ok bool) {
	block, body, err := frontmatter.Split(data)
	return block, body, err == nil
}
