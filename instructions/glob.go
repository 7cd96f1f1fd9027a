package instructions

import (
	"path"
	"strings"
)

// maxBraceExpansions bounds the alternatives one pattern can expand to, so a
// hostile pattern cannot blow up memory.
const maxBraceExpansions = 64

// MatchGlob reports whether the slash-separated path name matches pattern.
// Within a segment "*", "?" and "[...]" work as in path.Match; a "**" segment
// matches any number of segments, including none; "{a,b}" alternatives are
// expanded. A pattern without "/" matches the base name at any depth, and a
// leading "/" or "./" anchors it to the root. A malformed pattern matches
// nothing.
func MatchGlob(pattern, name string) bool {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return false
	}
	name = strings.TrimPrefix(path.Clean("/"+name), "/")
	for _, p := range expandBraces(pattern, maxBraceExpansions) {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		case !strings.Contains(p, "/"):
			p = "**/" + p
		}
		if matchSegments(strings.Split(strings.TrimSuffix(p, "/"), "/"), strings.Split(name, "/")) {
			return true
		}
	}
	return false
}

// matchSegments matches pattern segments against name segments by dynamic
// programming, so many "**" segments stay linear in the name's length.
func matchSegments(pat, name []string) bool {
	// ok[j] reports whether pat[:i] matches name[:j] for the current i.
	ok := make([]bool, len(name)+1)
	ok[0] = true
	for _, seg := range pat {
		next := make([]bool, len(name)+1)
		if seg == "**" {
			seen := false
			for j := range ok {
				seen = seen || ok[j]
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(name); j++ {
				if ok[j-1] {
					m, err := path.Match(seg, name[j-1])
					next[j] = err == nil && m
				}
			}
		}
		ok = next
	}
	return ok[len(name)]
}

// expandBraces expands "{a,b}" alternatives (nested ones too), returning at
// most limit patterns. An unbalanced brace is kept literally.
func expandBraces(p string, limit int) []string {
	if limit <= 0 {
		return nil
	}
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}
	}
	depth, close := 0, -1
	var commas []int
	for i := open; i < len(p) && close < 0; i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				close = i
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	if close < 0 {
		return []string{p}
	}
	prefix, suffix := p[:open], p[close+1:]
	var alts []string
	start := open + 1
	for _, c := range append(commas, close) {
		alts = append(alts, p[start:c])
		start = c + 1
	}
	var out []string
	for _, a := range alts {
		for _, e := range expandBraces(prefix+a+suffix, limit-len(out)) {
			if len(out) >= limit {
				return out
			}
			out = append(out, e)
		}
	}
	return out
}
