package secrets

import (
	"encoding/base64"
	"strings"
)

// Test credentials are assembled at run time from a prefix and generated
// material, so that no literal token sits in the source for other scanners
// (or push protection) to trip over.

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	hexLow = "0123456789abcdef"
	b64    = alnum + "+/"
)

// gen returns n deterministic pseudo-random bytes drawn from alphabet.
func gen(alphabet string, n int, seed uint32) string {
	var b strings.Builder
	x := seed*2654435761 + 1
	for range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteByte(alphabet[x%uint32(len(alphabet))])
	}
	return b.String()
}

func rnd(n int, seed uint32) string { return gen(alnum, n, seed) }

func hexs(n int, seed uint32) string { return gen(hexLow, n, seed) }

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// jwtToken returns a well-formed, unsigned-looking JWT.
func jwtToken() string {
	return b64url(`{"alg":"HS256","typ":"JWT"}`) + "." +
		b64url(`{"sub":"1234567890","name":"Ada","iat":1516239022}`) + "." + rnd(43, 99)
}

// pemBlock returns a private key block with the given type word ("RSA ",
// "" ...), lines joined by nl.
func pemBlock(typ, nl string, headers ...string) string {
	lines := []string{"-----BEGIN " + typ + "PRIVATE KEY-----"}
	lines = append(lines, headers...)
	lines = append(lines, "MIIEow"+gen(b64, 58, 7), gen(b64, 64, 8), "-----END "+typ+"PRIVATE KEY-----")
	return strings.Join(lines, nl)
}
