// Command gensecretrules turns gitleaks' rule set (config/gitleaks.toml,
// MIT licence) into secrets/gitleaks_rules.go: the rules as Go data, so
// that memdir keeps a maintained rule set without a TOML dependency and
// without parsing anything at start-up.
//
// It is run by hand when the rules are refreshed, never in CI:
//
//	git -C gitleaks show HEAD:config/gitleaks.toml > /tmp/gitleaks.toml
//	go run ./scripts/gensecretrules -commit $(git -C gitleaks rev-parse HEAD) \
//	    /tmp/gitleaks.toml > secrets/gitleaks_rules.go && gofmt -l secrets
//
// It reads only the subset of TOML that file uses: tables [allowlist],
// [[rules]] and [[rules.allowlists]], keys with triple-quoted literal or "basic"
// strings, numbers and arrays of strings, and # comments. Rules bound to
// file paths (a path key) are left out, since memory has no such paths, and
// so are allowlists that only name paths.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// allow is one allowlist: regexes and stop words that mark a candidate as
// not a secret.
type allow struct {
	target    string
	regexes   []string
	stopwords []string
	paths     bool
	condition string
}

// rule is one [[rules]] table.
type rule struct {
	id, description, regex, path string
	group                        int
	entropy                      float64
	keywords                     []string
	allows                       []*allow
}

func main() {
	commit := flag.String("commit", "unknown", "gitleaks commit the file comes from")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gensecretrules -commit SHA gitleaks.toml")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensecretrules:", err)
		os.Exit(1)
	}
	defer f.Close()
	global, rules, err := parse(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensecretrules:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	write(w, *commit, global, rules)
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gensecretrules:", err)
		os.Exit(1)
	}
}

// parse reads the global allowlist and the rules.
func parse(r io.Reader) (*allow, []*rule, error) {
	global := &allow{}
	var rules []*rule
	var cur map[string]any // nil for top-level keys, which are not needed
	apply := func() {}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		n++
		return sc.Text(), true
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case t == "[allowlist]" || t == "[[rules]]" || t == "[[rules.allowlists]]":
			apply()
			cur = map[string]any{}
			apply = tableApplier(t, cur, global, &rules)
			continue
		}
		key, val, ok := strings.Cut(t, "=")
		if !ok {
			return nil, nil, fmt.Errorf("line %d: not key = value: %q", n, t)
		}
		val = strings.TrimSpace(val)
		if strings.HasPrefix(val, "[") {
			for !arrayClosed(val) {
				more, ok := next()
				if !ok {
					return nil, nil, fmt.Errorf("line %d: unterminated array", n)
				}
				val += "\n" + more
			}
		}
		v, err := value(val)
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", n, err)
		}
		if cur != nil {
			cur[strings.TrimSpace(key)] = v
		}
	}
	apply()
	return global, rules, sc.Err()
}

// tableApplier returns what stores table m once it is complete.
func tableApplier(header string, m map[string]any, global *allow, rules *[]*rule) func() {
	return func() {
		switch header {
		case "[allowlist]":
			*global = *allowOf(m)
		case "[[rules]]":
			r := &rule{id: str(m["id"]), description: str(m["description"]), regex: str(m["regex"]),
				path: str(m["path"]), keywords: strs(m["keywords"])}
			if g, ok := m["secretGroup"].(float64); ok {
				r.group = int(g)
			}
			if e, ok := m["entropy"].(float64); ok {
				r.entropy = e
			}
			*rules = append(*rules, r)
		case "[[rules.allowlists]]":
			if len(*rules) > 0 {
				last := (*rules)[len(*rules)-1]
				last.allows = append(last.allows, allowOf(m))
			}
		}
	}
}

func allowOf(m map[string]any) *allow {
	return &allow{target: str(m["regexTarget"]), regexes: strs(m["regexes"]), stopwords: strs(m["stopwords"]),
		paths: m["paths"] != nil, condition: str(m["condition"])}
}

func str(v any) string { s, _ := v.(string); return s }

func strs(v any) []string { s, _ := v.([]string); return s }

// arrayClosed reports whether the array text s has its closing bracket,
// ignoring brackets inside strings.
func arrayClosed(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "'''"):
			j := strings.Index(s[i+3:], "'''")
			if j < 0 {
				return false
			}
			i += 3 + j + 2
		case s[i] == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case s[i] == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case s[i] == '[':
			depth++
		case s[i] == ']':
			depth--
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// value parses a string, a number or an array of strings.
func value(s string) (any, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		var out []string
		rest := strings.TrimSpace(s[1:])
		for {
			rest = skipBlank(rest)
			if strings.HasPrefix(rest, "]") {
				return out, nil
			}
			v, tail, err := stringValue(rest)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			rest = skipBlank(tail)
			rest = strings.TrimPrefix(rest, ",")
		}
	}
	if strings.HasPrefix(s, "'") || strings.HasPrefix(s, `"`) {
		v, _, err := stringValue(s)
		return v, err
	}
	f, err := strconv.ParseFloat(strings.Fields(s)[0], 64)
	if err != nil {
		return nil, fmt.Errorf("value %q: %w", s, err)
	}
	return f, nil
}

// skipBlank drops leading blanks, newlines and comments.
func skipBlank(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(s, "#") {
			return s
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return ""
		}
		s = s[i:]
	}
}

// stringValue parses the string that starts s and returns the rest.
func stringValue(s string) (string, string, error) {
	switch {
	case strings.HasPrefix(s, "'''"):
		j := strings.Index(s[3:], "'''")
		if j < 0 {
			return "", "", fmt.Errorf("unterminated literal string")
		}
		return s[3 : 3+j], s[3+j+3:], nil
	case strings.HasPrefix(s, "'"):
		j := strings.IndexByte(s[1:], '\'')
		if j < 0 {
			return "", "", fmt.Errorf("unterminated literal string")
		}
		return s[1 : 1+j], s[1+j+1:], nil
	case strings.HasPrefix(s, `"`):
		j := 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(s) {
			return "", "", fmt.Errorf("unterminated string")
		}
		v, err := strconv.Unquote(s[:j+1])
		return v, s[j+1:], err
	}
	return "", "", fmt.Errorf("expected a string at %.20q", s)
}
