package instructions

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// MatchGlob reports whether the slash-separated path name matches pattern,
// gitignore-style as Claude Code's rule matching (the "ignore" package) does:
// "*", "?", "[...]", "**" and "{a,b}" work as in doublestar; a pattern
// without "/" matches a name at any depth; a leading "/" or "./" anchors it
// to the root; and a pattern that matches a directory matches everything
// under it. A malformed pattern matches nothing.
func MatchGlob(pattern, name string) bool {
	p := strings.TrimSpace(pattern)
	if p == "" {
		return false
	}
	name = strings.TrimPrefix(path.Clean("/"+name), "/")
	anchored := false
	for _, prefix := range []string{"./", "/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			p, anchored = rest, true
			break
		}
	}
	p = strings.TrimSuffix(p, "/")
	if p == "" || !doublestar.ValidatePattern(p) {
		return false
	}
	if !anchored && !strings.Contains(p, "/") {
		p = "**/" + p
	}
	for n := name; n != "" && n != "."; n = path.Dir(n) {
		if ok, _ := doublestar.Match(p, n); ok {
			return true
		}
		if !strings.Contains(n, "/") {
			break
		}
	}
	return false
}

// claudePaths turns the values of a rule's "paths" key into the patterns
// Claude Code 2.1 matches (its FBt and gpp functions): each value is split at
// commas outside braces, each brace group is expanded, a trailing "/**" is
// dropped, empty patterns go, and a list of nothing but "**" means no
// limit at all (nil).
func claudePaths(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range splitTopLevel(v) {
			for _, p := range expandFirstBrace(part, 0) {
				if p = strings.TrimSuffix(p, "/**"); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	for _, p := range out {
		if p != "**" {
			return out
		}
	}
	return nil
}

// splitTopLevel splits s at commas that are not inside braces, trimming
// each piece and dropping empty ones.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		switch {
		case i == len(s) || s[i] == ',' && depth == 0:
			if t := strings.TrimSpace(s[start:i]); t != "" {
				out = append(out, t)
			}
			start = i + 1
		case s[i] == '{':
			depth++
		case s[i] == '}':
			depth--
		}
	}
	return out
}

// maxBraceExpansions bounds the alternatives one pattern can expand to, so a
// hostile pattern cannot blow up memory.
const maxBraceExpansions = 64

// expandFirstBrace expands brace groups the way Claude Code's VUi does: the
// first "{...}" holding no other brace is split at commas, recursively.
func expandFirstBrace(p string, depth int) []string {
	open := strings.IndexByte(p, '{')
	if open < 0 || depth > 8 {
		return []string{p}
	}
	close := strings.IndexByte(p[open:], '}')
	inner := ""
	if close > 0 {
		inner = p[open+1 : open+close]
	}
	if close <= 1 || strings.Contains(inner, "{") {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(inner, ",") {
		for _, e := range expandFirstBrace(p[:open]+strings.TrimSpace(alt)+p[open+close+1:], depth+1) {
			if len(out) == maxBraceExpansions {
				return out
			}
			out = append(out, e)
		}
	}
	return out
}
