package secrets

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"
)

// Real key material, generated afresh for each test run: format-valid,
// and protecting nothing.

// derKeys holds DER encodings of freshly generated keys and a certificate.
type derKeys struct {
	rsaPKCS1, rsaPKCS8, ecSEC1, ed25519PKCS8, cert, rsaPublic []byte
}

var testKeys = sync.OnceValue(func() derKeys {
	var k derKeys
	rk, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		panic(err)
	}
	k.rsaPKCS1 = x509.MarshalPKCS1PrivateKey(rk)
	k.rsaPKCS8 = must(x509.MarshalPKCS8PrivateKey(rk))
	ek := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	k.ecSEC1 = must(x509.MarshalECPrivateKey(ek))
	_, edk := must2(ed25519.GenerateKey(rand.Reader))
	k.ed25519PKCS8 = must(x509.MarshalPKCS8PrivateKey(edk))
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(42),
		Subject:      pkix.Name{CommonName: "memdir test"},
		NotBefore:    time.Unix(0, 0),
		NotAfter:     time.Unix(1<<31, 0),
	}
	k.cert = must(x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ek.PublicKey, ek))
	k.rsaPublic = must(x509.MarshalPKIXPublicKey(&rk.PublicKey))
	return k
})

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// pemOf armours der as a PEM block of type typ, lines joined by nl.
func pemOf(typ string, der []byte, nl string) string {
	s := string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", nl)
}

// bodyOf is the base64 body of der in 64-column lines joined by nl, with no
// armour.
func bodyOf(der []byte, nl string) string {
	return wrap(base64.StdEncoding.EncodeToString(der), nl)
}

// wrap cuts s into 64-column lines joined by nl.
func wrap(s, nl string) string {
	var lines []string
	for len(s) > 64 {
		lines = append(lines, s[:64])
		s = s[64:]
	}
	return strings.Join(append(lines, s), nl)
}

// opensshBody is the base64 body of an OpenSSH private key: the magic
// header and generated key bytes.
func opensshBody() string {
	raw := append([]byte("openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none"), gen(alnum, 300, 90)...)
	return base64.StdEncoding.EncodeToString(raw)
}

func b64std(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestKeyBodyDER(t *testing.T) {
	k := testKeys()
	tests := []struct {
		name string
		der  []byte
		want bool
	}{
		{"rsa pkcs1", k.rsaPKCS1, true},
		{"rsa pkcs8", k.rsaPKCS8, true},
		{"ec sec1", k.ecSEC1, true},
		{"ed25519 pkcs8", k.ed25519PKCS8, true},
		{"certificate", k.cert, false},
		{"rsa public key", k.rsaPublic, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := keyBody(base64.StdEncoding.EncodeToString(tc.der)); got != tc.want {
				t.Errorf("keyBody = %v, want %v", got, tc.want)
			}
		})
	}
}
