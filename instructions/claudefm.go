package instructions

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memdir/memdir/frontmatter"
	"github.com/memdir/memdir/internal/lazyre"
)

// claudeFrontmatter reads frontmatter as Claude Code 2.1 does (its jm):
// the block found by Claude's own expression (frontmatter.SplitClaude), its
// YAML read as is, else once more after claudeRepair, else as no keys at
// all; the body is what follows the block either way. An unclosed block
// is no frontmatter: the whole text is the body. err reports YAML that
// even the repair could not read (the file then loads without conditions,
// as in Claude Code, which only logs a warning).
func claudeFrontmatter(data []byte) (fm Frontmatter, body []byte, had bool, err error) {
	// 2.1.3xx reads frontmatter after a byte order mark too
	// (frontmatter.StripClaude); a file without one keeps its mark.
	yml, body, ok := frontmatter.SplitClaude(bytes.TrimPrefix(data, []byte("\ufeff")))
	if !ok {
		return Frontmatter{}, data, false, nil
	}
	if yaml.Unmarshal(yml, &fm) == nil {
		return fm, body, true, nil
	}
	fm = Frontmatter{}
	if err := yaml.Unmarshal(claudeRepair(yml), &fm); err != nil {
		return Frontmatter{}, body, true, fmt.Errorf("frontmatter: %w", err)
	}
	return fm, body, true, nil
}

var (
	// claudeKeyLine is a "key: value" line Claude Code's repair looks at.
	claudeKeyLine = lazyre.New(`^([a-zA-Z_-]+):[` + frontmatter.JSSpace + `]+([^\n\r\x{2028}\x{2029}]+)$`)
	// claudeSpecial is what makes the repair quote a value.
	claudeSpecial = lazyre.New("[{}\\[\\]*&#!|>%@`]|: ")
	leadingTabs   = lazyre.New(`(?m)^\t+`)
)

// claudeRepair is Claude Code 2.1's second try at YAML it could not read:
// on each "key: value" line, a value with a YAML indicator in it ("*",
// "{", "&", ": " ...) that is not already quoted or a flow list is put in
// double quotes, so "paths: **/*.ts" reads as a pattern; then each leading
// tab becomes two spaces.
func claudeRepair(yml []byte) []byte {
	lines := strings.Split(string(yml), "\n")
	for i, line := range lines {
		m := claudeKeyLine().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		key, v := m[1], m[2]
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			continue
		}
		if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
			var list any
			if yaml.Unmarshal([]byte(v), &list) == nil {
				if _, ok := list.([]any); ok {
					continue
				}
			}
		}
		if claudeSpecial().MatchString(v) {
			lines[i] = key + `: "` + strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `"`, `\"`) + `"`
		}
	}
	return leadingTabs().ReplaceAllFunc([]byte(strings.Join(lines, "\n")), func(tabs []byte) []byte {
		return []byte(strings.Repeat("  ", len(tabs)))
	})
}
