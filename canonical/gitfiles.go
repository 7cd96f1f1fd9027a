package canonical

import (
	"strings"
)

const gitdirPrefix = "gitdir: "

// parseGitFile reads the path out of a .git file ("gitdir: <path>\n") the way
// git does: the prefix is exact and only trailing CR and LF are trimmed.
func parseGitFile(data []byte) (string, error) {
	s := string(data)
	if !strings.HasPrefix(s, gitdirPrefix) {
		return "", ErrBadGitFile
	}
	return parsePathFile([]byte(s[len(gitdirPrefix):]))
}

// parsePathFile reads a one-line path file such as commondir.
func parsePathFile(data []byte) (string, error) {
	p := strings.TrimRight(string(data), "\r\n")
	if p == "" || strings.ContainsAny(p, "\x00\r\n") {
		return "", ErrBadGitFile
	}
	return p, nil
}

// coreConfig holds the few core.* settings Find needs.
type coreConfig struct {
	worktree string
	bare     bool
}

// parseCoreConfig reads core.worktree and core.bare from a git config file.
// It follows git's syntax for sections, comments, quoting and escapes; a
// line it cannot parse is skipped, since a wrong guess here only costs a
// fallback root.
func parseCoreConfig(data []byte) coreConfig {
	var cfg coreConfig
	s := string(data)
	section := ""
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#' || c == ';':
			i = skipLine(s, i)
		case c == '[':
			j := strings.IndexAny(s[i:], "]\n")
			if j < 0 || s[i+j] != ']' {
				i = skipLine(s, i)
				continue
			}
			section = strings.ToLower(s[i+1 : i+j])
			i += j + 1
		default:
			var key, value string
			var ok bool
			key, value, i, ok = parseEntry(s, i)
			if !ok || section != "core" {
				continue
			}
			switch key {
			case "worktree":
				cfg.worktree = value
			case "bare":
				cfg.bare = isTrue(value)
			}
		}
	}
	return cfg
}

// parseEntry parses `key [= value]` starting at i and returns the lowercased
// key, the value and the index after the entry.
func parseEntry(s string, i int) (key, value string, next int, ok bool) {
	j := i
	for j < len(s) && isKeyChar(s[j]) {
		j++
	}
	if j == i {
		return "", "", skipLine(s, i), false
	}
	key = strings.ToLower(s[i:j])
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= len(s) || s[j] == '\n' || s[j] == '\r' || s[j] == '#' || s[j] == ';' {
		return key, "true", skipLine(s, j), true
	}
	if s[j] != '=' {
		return "", "", skipLine(s, j), false
	}
	value, next, ok = parseValue(s, j+1)
	return key, value, next, ok
}

// parseValue follows git's config.c: whitespace outside quotes is kept
// inside the value but dropped at its ends, ; and # outside quotes start a
// comment, and backslash escapes \n \t \b \\ \" and a line continuation.
func parseValue(s string, i int) (string, int, bool) {
	var b strings.Builder
	quoted, spaces, started := false, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			return b.String(), i + 1, !quoted
		}
		if !quoted && (c == ';' || c == '#') {
			return b.String(), skipLine(s, i), true
		}
		if !quoted && (c == ' ' || c == '\t' || c == '\r') {
			if started {
				spaces++
			}
			continue
		}
		started = true
		for ; spaces > 0; spaces-- {
			b.WriteByte(' ')
		}
		switch c {
		case '"':
			quoted = !quoted
		case '\\':
			i++
			if i >= len(s) {
				return "", i, false
			}
			e, ok := unescape(s[i])
			if !ok {
				return "", skipLine(s, i), false
			}
			if e != 0 {
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), i, !quoted
}

// unescape maps the character after a backslash; 0 means a line
// continuation.
func unescape(c byte) (byte, bool) {
	switch c {
	case '\n':
		return 0, true
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'b':
		return '\b', true
	case '\\', '"':
		return c, true
	}
	return 0, false
}

func skipLine(s string, i int) int {
	j := strings.IndexByte(s[i:], '\n')
	if j < 0 {
		return len(s)
	}
	return i + j + 1
}

func isKeyChar(c byte) bool {
	return c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}
