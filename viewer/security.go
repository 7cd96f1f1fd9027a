package viewer

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// contentPolicy allows the viewer's own script, style and images and
// nothing else: no inline script or style, no frames, no form posted
// elsewhere, no <base>. Images from memory's markdown that point
// elsewhere are not fetched (no tracking pixels).
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// guard is the viewer's access control: the run's token, the CSRF token of
// its forms, and the checks every request passes.
type guard struct {
	token string
	csrf  string
}

func newGuard(token string) (*guard, error) {
	if token == "" {
		var err error
		if token, err = randomHex(); err != nil {
			return nil, err
		}
	}
	csrf, err := randomHex()
	if err != nil {
		return nil, err
	}
	return &guard{token: token, csrf: csrf}, nil
}

func randomHex() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("viewer: random token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// cookieName carries the port: cookies do not tell ports apart, and two
// viewers on one machine must not overwrite each other's.
func cookieName(port string) string { return "memdir_ui_" + port }

// wrap checks every request before h sees it: Host, then Origin and
// Sec-Fetch-Site, then the token; POSTs also need the CSRF token.
func (g *guard) wrap(addr net.Addr, h http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr.String())
	cookie := cookieName(port)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		hdr.Set("Content-Security-Policy", contentPolicy)
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("X-Frame-Options", "DENY")
		hdr.Set("Referrer-Policy", "same-origin") // no-referrer would make the browser send "Origin: null" with our own forms
		hdr.Set("Cross-Origin-Opener-Policy", "same-origin")
		hdr.Set("Cross-Origin-Resource-Policy", "same-origin")
		hdr.Set("Cache-Control", "no-store")
		if !hostAllowed(r.Host, port) {
			refuse(w, http.StatusMisdirectedRequest, "this viewer answers only to its own address (127.0.0.1 or localhost)")
			return
		}
		if !sameOrigin(r) {
			refuse(w, http.StatusForbidden, "a request from another site is refused")
			return
		}
		if t := r.URL.Query().Get("token"); t != "" {
			g.enter(w, r, cookie, t)
			return
		}
		c, err := r.Cookie(cookie)
		if err != nil || !equal(c.Value, g.token) {
			refuse(w, http.StatusForbidden, "open the address `memdir ui` printed: it carries this run's token")
			return
		}
		if r.Method == http.MethodPost && !equal(r.PostFormValue("csrf"), g.csrf) {
			refuse(w, http.StatusForbidden, "this form is out of date: reload the page and try again")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// enter turns a token in the URL into the cookie and sends the browser on
// to the same address without it, so the token stays out of history and
// out of the address bar.
func (g *guard) enter(w http.ResponseWriter, r *http.Request, cookie, token string) {
	if r.Method != http.MethodGet || !equal(token, g.token) {
		refuse(w, http.StatusForbidden, "wrong token: open the address this run of `memdir ui` printed")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookie, Value: g.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	u := *r.URL
	q := u.Query()
	q.Del("token")
	u.RawQuery = q.Encode()
	u.Scheme, u.Host = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// hostAllowed accepts a Host header that is an IP address or localhost,
// on the listener's port. A DNS name that resolves to 127.0.0.1 (DNS
// rebinding) is refused: a hostile page could otherwise read the viewer
// as its own origin.
func hostAllowed(host, port string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != port {
		return false
	}
	return strings.EqualFold(h, "localhost") || net.ParseIP(h) != nil
}

// sameOrigin refuses requests a browser says come from another site:
// an Origin that is not this viewer, or a Sec-Fetch-Site other than
// same-origin or none (a typed address or a bookmark). Another server on
// 127.0.0.1 is "same-site", and refused too. A POST must carry an Origin
// or come from a client that is not a browser (no Sec-Fetch-Site either).
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin != "" && origin != "http://"+r.Host {
		return false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return origin != "" || r.Header.Get("Sec-Fetch-Site") == ""
	}
	return true
}

func equal(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

func refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintln(w, "memdir ui: "+msg)
}
