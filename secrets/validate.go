package secrets

import (
	"encoding/base64"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// fakeMarkers are lowercase substrings that mark a value as an example, a
// mask or a placeholder rather than a real credential.
var fakeMarkers = []string{
	"xxx", "***", "...", "…", "example", "placeholder", "redacted",
	"changeme", "change_me", "change-me", "your", "dummy", "sample", "fake",
}

// placeholderWords are whole values that name a credential instead of
// being one.
var placeholderWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"password": true, "passwd": true, "passphrase": true, "pass": true, "pwd": true, "secret": true,
		"token": true, "user": true, "username": true, "null": true, "none": true,
		"nil": true, "true": true, "false": true, "undefined": true, "empty": true,
		"required": true, "optional": true, "hidden": true, "string": true,
	}
})

// statusWords are lone words that say something about a password (its
// state, where it lives) rather than being one: password: disabled.
var statusWords = []string{
	"disabled", "enabled", "default", "defaults", "unset", "missing", "invalid",
	"expired", "unknown", "rotated", "encrypted", "generated", "random",
	"provided", "protected", "masked", "omitted", "removed", "changed",
	"unchanged", "prompt", "keychain", "keyring", "secure", "strong", "never",
	"always", "inherit", "inherited", "supplied", "secrets", "passwords",
	"environment", "variable", "hashed", "correct", "incorrect", "wrong",
	"stored", "blank",
}

// placeholderStarts are first bytes of variables, templates, tags and masks:
// $VAR, %VAR%, {{ x }}, <password>, [redacted], (hidden), !vault, @secret,
// #comment, ****.
const placeholderStarts = "$%{<[(!@#*"

// Minimum lengths of a credible value.
const (
	minAssignedLen = 6
	minURLPassLen  = 3
	minBearerLen   = 20
	minRandomBytes = 6    // distinct bytes in a generated token
	minEntropy     = 3.25 // bits per byte of a bearer token
)

// fake reports whether s contains one of the fakeMarkers.
func fake(s string) bool {
	l := lowerASCII(s)
	for _, m := range fakeMarkers {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// placeholder reports whether v is a variable, template, mask, example or a
// word such as "password" rather than a literal credential.
func placeholder(v string) bool {
	if v == "" || strings.IndexByte(placeholderStarts, v[0]) >= 0 {
		return true
	}
	return fake(v) || placeholderWords()[lowerASCII(v)] || distinct(v) < 2 || allDigits(v)
}

// random reports whether s looks like generated token material: several
// distinct bytes and no example markers.
func random(s string) bool {
	return distinct(s) >= minRandomBytes && !fake(s)
}

// mixed reports whether s has upper and lower case letters and digits, as
// every real OpenAI or Anthropic key does and library names do not.
func mixed(s string) bool {
	var up, low, dig bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		up = up || ('A' <= c && c <= 'Z')
		low = low || ('a' <= c && c <= 'z')
		dig = dig || ('0' <= c && c <= '9')
	}
	return up && low && dig && random(s)
}

// highEntropy reports whether s is long, mixes letters and digits and
// carries enough information per byte to be a generated token.
func highEntropy(s string) bool {
	return len(s) >= minBearerLen && hasDigit(s) && hasLetter(s) &&
		!placeholder(s) && entropy(s) >= minEntropy
}

// jwt accepts a JWT whose header decodes to a JSON object naming alg or typ.
func jwt(g []string) bool {
	header, _, _ := strings.Cut(g[0], ".")
	b, err := base64.RawURLEncoding.DecodeString(header)
	if err != nil {
		return false
	}
	h := strings.TrimSpace(string(b))
	return strings.HasPrefix(h, "{") && (strings.Contains(h, `"alg"`) || strings.Contains(h, `"typ"`))
}

// urlCredentials accepts scheme://user:pass@ when pass is a literal that
// differs from the user name, and scheme://:pass@ (Redis) when pass holds
// no further colon (cvs://:pserver:anoncvs@ is a CVS root, no password).
func urlCredentials(g []string) bool {
	user, pass := g[2], g[3]
	if user == "" && strings.Contains(pass, ":") {
		return false
	}
	return len(pass) >= minURLPassLen && !placeholder(pass) && pass != user
}

// basicAuth accepts an Authorization: Basic header whose payload decodes to
// user:password with a literal password.
func basicAuth(g []string) bool {
	b, err := base64.StdEncoding.DecodeString(g[1])
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(g[1])
	}
	if err != nil || !utf8.Valid(b) {
		return false
	}
	user, pass, ok := strings.Cut(string(b), ":")
	if !ok || user == "" || !printable(pass) {
		return false
	}
	return !placeholder(pass)
}

// assignment returns the validator of key=value: the value must be a
// literal credential (see the package comment for what is rejected). With
// lonelyWord, a bare value of letters alone (password=letmein) counts too
// when it is a plain word alone at the end of its line; g[5] is what
// follows the value on the line.
func assignment(lonelyWord bool) func(g []string) bool {
	return func(g []string) bool {
		dq, sq, bare := g[2], g[3], g[4]
		v := dq + sq + bare
		if len(v) < minAssignedLen || placeholder(v) || strings.Count(v, " ") >= 2 {
			return false
		}
		if namesPassword(v) {
			return false
		}
		if bare == "" || hasDigit(v) || hasSymbol(v) {
			return true
		}
		return lonelyWord && len(g) > 5 && g[5] == "" && configOp(g[1], v) && plainWord(v)
	}
}

// namesPassword reports whether v is an identifier or a file name that
// holds the word password or passphrase (encodeUserPassword,
// /etc/master.passwd): a name, not a password. MyPassword is taken for a
// name too.
func namesPassword(v string) bool {
	l := lowerASCII(v)
	if !strings.Contains(l, "passw") && !strings.Contains(l, "passphrase") {
		return false
	}
	if strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789_./-") != "" {
		return false
	}
	// A separator or a capital inside makes it a name; Password1 alone is
	// a (weak) password.
	return strings.ContainsAny(v, "_./") || strings.IndexFunc(v[1:], unicode.IsUpper) >= 0
}

// configOp reports whether the operator between the key and the value v in
// assignment a is a configuration file's: "key: value" (YAML), or
// "key=value" without a blank before '=' (env, INI, shell). Code puts
// blanks around '=' (password = request), and there a lone word is a
// variable.
func configOp(a, v string) bool {
	op := strings.TrimSuffix(a, v)
	op = strings.TrimLeft(op, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
	op = strings.Trim(op, "\"'*")
	if strings.HasPrefix(op, ":") {
		return !strings.HasPrefix(op, ":=")
	}
	return strings.HasPrefix(op, "=") && !strings.HasPrefix(op, "=>")
}

// prosePassword accepts the value of "the password is X": quoted, any
// literal that is not a placeholder or a sentence; bare, only one with a
// digit or a symbol, since "the password is incorrect" is prose.
func prosePassword(g []string) bool {
	v := g[1]
	if q := v[0]; q == '"' || q == '\'' || q == '`' {
		v = v[1 : len(v)-1]
		return len(v) >= minAssignedLen && !placeholder(v) && strings.Count(v, " ") < 2
	}
	v = strings.TrimRight(v, ".,;:!?)")
	return len(v) >= minAssignedLen && !placeholder(v) && (hasDigit(v) || hasSymbol(v))
}

// plainWord reports whether v is letters, perhaps joined by '-', with no
// capital inside (camelCase is code), and not a word that describes a
// password rather than being one.
func plainWord(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z', c == '-':
		case 'A' <= c && c <= 'Z':
			if i > 0 && 'a' <= v[i-1] && v[i-1] <= 'z' {
				return false
			}
		default:
			return false
		}
	}
	return !slices.Contains(statusWords, lowerASCII(v))
}

// distinct counts the distinct bytes in s.
func distinct(s string) int {
	var seen [256]bool
	n := 0
	for i := 0; i < len(s); i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			n++
		}
	}
	return n
}

// entropy returns the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasLetter(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < utf8.RuneSelf && unicode.IsLetter(r) }) >= 0
}

// hasSymbol reports whether s has a byte other than an ASCII letter, a digit,
// '_', '.' or '-': what separates a password from an identifier.
func hasSymbol(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		word := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
		if !word {
			return true
		}
	}
	return false
}

func printable(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}
