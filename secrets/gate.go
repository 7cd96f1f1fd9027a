package secrets

import "strings"

// byteSet is a set of bytes for the gates.
type byteSet [256]bool

func newByteSet(chars string) *byteSet {
	var s byteSet
	for i := 0; i < len(chars); i++ {
		s[chars[i]] = true
	}
	return &s
}

// Character sets of token material.
var (
	alnumSet  = newByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
	upperSet  = newByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
	hexSet    = newByteSet("0123456789abcdefABCDEF")
	tokenSet  = newByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
	b64Set    = newByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
	bearerSet = newByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/")
	keySet    = newByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
)

// run counts the bytes of s from i on that are in set.
func run(s string, i int, set *byteSet) int {
	n := 0
	for i+n < len(s) && set[s[i+n]] {
		n++
	}
	return n
}

// followedBy passes a hit followed by at least n bytes of set.
func followedBy(n int, set *byteSet) gate {
	return func(s string, _, j int) bool { return run(s, j, set) >= n }
}

// assigned passes a hit inside a key that is followed by = or :, as in
// password=..., "api_key": ... or **Password:**.
func assigned(s string, _, j int) bool {
	k := j + run(s, j, keySet)
	for n := 0; n < 2 && k < len(s) && strings.IndexByte(`"'*`, s[k]) >= 0; n++ {
		k++
	}
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	return k < len(s) && (s[k] == ':' || s[k] == '=')
}

// userinfo passes a "://" followed by user:pass@ or :pass@ (Redis).
func userinfo(s string, _, j int) bool {
	rest := s[j:]
	end := strings.IndexAny(rest, " \t\r\n/?#@")
	return end > 0 && rest[end] == '@' && strings.IndexByte(rest[:end], ':') >= 0
}

// bearer passes "bearer" followed by blanks and a long run of token bytes.
func bearer(s string, _, j int) bool {
	k := j
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	return k > j && run(s, k, bearerSet) >= minBearerLen
}

// pemHeader passes "PRIVATE KEY" that closes a PEM header line.
func pemHeader(s string, _, j int) bool {
	return strings.HasPrefix(s[j:], "-----") || strings.HasPrefix(s[j:], " BLOCK-----")
}

// saidIs passes "password" followed within a few words by "is" or "was"
// between blanks, as in "the password for staging is ...".
func saidIs(s string, _, j int) bool {
	end := min(lineEnd(s, j), j+64)
	rest := lowerASCII(s[j:end])
	for _, w := range []string{"is", "was"} {
		for k := 0; k < len(rest); {
			i := strings.Index(rest[k:], w)
			if i < 0 {
				break
			}
			i += k
			if i > 0 && (rest[i-1] == ' ' || rest[i-1] == '\t') {
				return true
			}
			k = i + 1
		}
	}
	return false
}
