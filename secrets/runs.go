package secrets

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kinds found by looking at runs of base64 characters rather than by a
// table row.
const (
	kindKeyBody   = "private key (base64 body without PEM armour)"
	kindAWSSecret = "AWS secret access key"
	base64Prefix  = "base64-encoded "
)

// Sizes of the base64 runs worth a look.
const (
	minEncodedRun  = 20      // shortest run decoded and scanned again
	maxEncodedRun  = 1 << 16 // longest run decoded
	minKeyBodyRun  = 40      // shortest first line of a key body
	awsSecretLen   = 40      // an AWS secret access key, exactly
	minTransitions = 18      // character class changes in 40 random bytes: about 25 +- 3
	maxDecodeDepth = 2       // base64 inside base64 inside the text
)

// b64Byte reports whether c is a byte of standard or URL-safe base64 but
// padding. (A function rather than a byteSet, which would cost at init.)
func b64Byte(c byte) bool { return tokenSet[c] || c == '+' || c == '/' }

// b64Run counts the bytes of s from i on that b64Byte accepts.
func b64Run(s string, i int) int {
	n := 0
	for i+n < len(s) && b64Byte(s[i+n]) {
		n++
	}
	return n
}

// runMatches finds, in the maximal runs of base64 characters of text, the
// body of a private key given without its BEGIN and END lines, a bare AWS
// secret access key, and credentials that are base64-encoded: a run that
// decodes to text is scanned again (to depth maxDecodeDepth). prio is the
// priority given to what it finds, after every table row.
func runMatches(text string, prio, depth int) []match {
	var out []match
	for i := 0; i < len(text); {
		if !b64Byte(text[i]) {
			i++
			continue
		}
		n := b64Run(text, i)
		if n+padding(text, i+n) >= minEncodedRun {
			out = append(out, checkRun(text, i, i+n, prio, depth)...)
		}
		i += n
	}
	return out
}

// checkRun looks at the run text[start:end].
func checkRun(text string, start, end, prio, depth int) []match {
	r := text[start:end]
	if len(r) >= minKeyBodyRun && keyBody(r) {
		return []match{{start: start, end: end, prio: prio, kind: kindKeyBody}}
	}
	if len(r) == awsSecretLen && awsSecret(r) {
		return []match{{start: start, end: end, prio: prio, kind: kindAWSSecret}}
	}
	if depth >= maxDecodeDepth {
		return nil
	}
	padded := end + padding(text, end)
	if _, _, ok := encodingOf(text[start:padded]); !ok {
		return nil // before joining the lines of a wrapped block
	}
	decoded, ok := decodeText(text[start:padded], wrappedBlock(text, padded))
	if !ok {
		// A run that happens to be as wide as a wrapped block's lines
		// (a double-encoded token alone on a line) stands alone.
		decoded, ok = decodeText(text[start:padded], "")
	}
	if !ok {
		return nil
	}
	inner := scanAll(decoded, depth+1)
	if len(inner) == 0 {
		return nil
	}
	table, _ := detectors()
	return []match{{start: start, end: end, prio: prio, kind: base64Prefix + inner[0].kindIn(table)}}
}

// padding counts the '=' (at most two) at text[i:].
func padding(text string, i int) int {
	n := 0
	for i+n < len(text) && n < 2 && text[i+n] == '=' {
		n++
	}
	return n
}

// wrappedBlock returns the lines that continue a base64 block wrapped at a
// fixed width (64 or 76 columns, as PEM and base64(1) wrap), from the
// line break at i on; "" when the run does not end a full-width line.
func wrappedBlock(text string, i int) string {
	lineStart := strings.LastIndexByte(text[:i], '\n') + 1
	width := i - lineStart
	if width != 64 && width != 76 {
		return ""
	}
	var b strings.Builder
	for i < len(text) && b.Len() < maxEncodedRun {
		j := i
		if strings.HasPrefix(text[j:], "\r\n") {
			j += 2
		} else if text[j] == '\n' {
			j++
		} else {
			break
		}
		n := b64Run(text, j)
		for j+n < len(text) && text[j+n] == '=' {
			n++
		}
		if n == 0 {
			break
		}
		b.WriteString(text[j : j+n])
		i = j + n
		if n != width {
			break
		}
	}
	return b.String()
}

// decodeText decodes a base64 run (and the lines that continue it) and
// returns the result when it is text: valid UTF-8 without control
// characters other than tabs and line breaks.
func decodeText(first, more string) (string, bool) {
	s := first + more
	if len(s) > maxEncodedRun {
		s = s[:maxEncodedRun&^3]
	}
	enc, raw, ok := encodingOf(s)
	if !ok {
		return "", false
	}
	if !strings.HasSuffix(s, "=") && len(s)%4 != 0 {
		enc = raw
	}
	b, err := enc.DecodeString(s)
	if err != nil || len(b) < minEncodedRun/2 || !utf8.Valid(b) {
		return "", false
	}
	if bytes.IndexFunc(b, func(r rune) bool { return !unicode.IsPrint(r) && !unicode.IsSpace(r) }) >= 0 {
		return "", false
	}
	return string(b), true
}

// encodingOf returns the padded and raw encodings of run s: standard, or
// URL-safe when it has '-' or '_'; ok is false when s mixes both alphabets
// or its first 32 bytes cannot start text (most runs are binary, and say
// so early).
func encodingOf(s string) (enc, raw *base64.Encoding, ok bool) {
	enc, raw = base64.StdEncoding, base64.RawStdEncoding
	if strings.ContainsAny(s, "-_") {
		if strings.ContainsAny(s, "+/") {
			return nil, nil, false
		}
		enc, raw = base64.URLEncoding, base64.RawURLEncoding
	}
	if len(s) > 32 && !textPrefix(raw, s[:32]) {
		return nil, nil, false
	}
	return enc, raw, true
}

// textPrefix reports whether the 32 base64 bytes that start a longer run
// decode to bytes that may start text: no control characters but the
// white space ones (\t to \r), as decodeText itself asks. It allocates
// nothing.
func textPrefix(raw *base64.Encoding, prefix string) bool {
	var buf [24]byte
	var src [32]byte
	copy(src[:], prefix)
	n, err := raw.Decode(buf[:], src[:])
	if err != nil {
		return false
	}
	for _, c := range buf[:n] {
		if c < 0x20 && (c < '\t' || c > '\r') || c == 0x7f {
			return false
		}
	}
	return true
}

// awsSecret reports whether a 40-byte run is random base64 as an AWS secret
// access key is: standard alphabet, upper and lower case and digits, not
// hex (a git SHA), not base64 of text, not an example, and changing
// character class as often as random bytes do (paths and identifiers
// change far less).
func awsSecret(r string) bool {
	if strings.ContainsAny(r, "-_") || run(r, 0, hexSet) == len(r) || fake(r) {
		return false
	}
	var up, low, dig bool
	changes := 0
	for i := 0; i < len(r); i++ {
		c := charClass(r[i])
		up, low, dig = up || c == 'A', low || c == 'a', dig || c == '0'
		if i > 0 && c != charClass(r[i-1]) {
			changes++
		}
	}
	if !up || !low || !dig || changes < minTransitions || wordy(r) {
		return false
	}
	_, isText := decodeText(r, "")
	return !isText
}

// wordy reports whether a run holds two or more words of prose between its
// '+' and '/' (a URL's query string, a path): a random key holds almost
// never even one.
func wordy(r string) bool {
	n := 0
	for _, w := range strings.FieldsFunc(r, func(c rune) bool { return c == '+' || c == '/' }) {
		if len(w) >= 3 && proseWord(w) {
			n++
		}
	}
	return n >= 2
}

// charClass maps a base64 byte to 'A', 'a', '0' or '+'.
func charClass(c byte) byte {
	switch {
	case 'A' <= c && c <= 'Z':
		return 'A'
	case 'a' <= c && c <= 'z':
		return 'a'
	case '0' <= c && c <= '9':
		return '0'
	}
	return '+'
}

// opensshMagic is "openssh-key-v1\x00" in base64: the start of every
// OpenSSH private key body.
const opensshMagic = "b3BlbnNzaC1rZXktdjE"

// keyBody reports whether a base64 run starts the DER encoding of a private
// key: PKCS#1 RSA or DSA, SEC1 EC, PKCS#8 (plain or encrypted), or an
// OpenSSH key. Certificates, public keys and requests start otherwise.
func keyBody(r string) bool {
	if strings.HasPrefix(r, opensshMagic) {
		return true
	}
	if r[0] != 'M' {
		return false
	}
	enc := base64.RawStdEncoding
	if strings.ContainsAny(r[:32], "-_") {
		enc = base64.RawURLEncoding
	}
	b, err := enc.DecodeString(r[:32])
	if err != nil {
		return false
	}
	return derPrivateKey(b)
}

// derPrivateKey looks at the first bytes of a DER SEQUENCE for the fields
// that open a private key.
func derPrivateKey(b []byte) bool {
	body, ok := seqBody(b)
	if !ok || len(body) < 4 {
		return false
	}
	switch {
	case body[0] == 0x02 && body[1] == 0x01 && body[2] == 0x00:
		// version 0, then the RSA or DSA modulus or the PKCS#8 algorithm.
		return body[3] == 0x02 || body[3] == 0x30
	case body[0] == 0x02 && body[1] == 0x01 && body[2] == 0x01:
		// SEC1 EC key (version 1, then the key as an OCTET STRING) or
		// PKCS#8 v2.
		return body[3] == 0x04 || body[3] == 0x30
	case body[0] == 0x30:
		// EncryptedPrivateKeyInfo: the algorithm is PBES2 or a PKCS#12 PBE.
		alg, ok := seqBody(body)
		return ok && (bytes.HasPrefix(alg, []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05}) ||
			bytes.HasPrefix(alg, []byte{0x06, 0x0a, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01}))
	}
	return false
}

// seqBody returns what follows the tag and length of a DER SEQUENCE.
func seqBody(b []byte) ([]byte, bool) {
	if len(b) < 2 || b[0] != 0x30 {
		return nil, false
	}
	switch l := b[1]; {
	case l < 0x80:
		return b[2:], true
	case l == 0x81 && len(b) >= 3:
		return b[3:], true
	case l == 0x82 && len(b) >= 4:
		return b[4:], true
	case l == 0x83 && len(b) >= 5:
		return b[5:], true
	}
	return nil, false
}
