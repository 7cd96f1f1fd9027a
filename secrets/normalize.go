package secrets

import (
	"html"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// view is a text rewritten to undo a disguise, with, for each of its
// bytes, the span [from, to) of the original text it stands for, so that
// what is found in the view is reported at its place in the original.
type view struct {
	text     string
	from, to []int
}

// back maps a match in the view onto the original text.
func (v *view) back(m match) match {
	m.start, m.end = v.from[m.start], v.to[m.end-1]
	return m
}

// after returns the view w of v.text as a view of v's original.
func (v *view) after(w view) view {
	for k := range w.from {
		w.from[k], w.to[k] = v.from[w.from[k]], v.to[w.to[k]-1]
	}
	return w
}

// viewBuilder writes a view of src, allocating only at the first rewrite
// (most texts need none). The view holds only the lines of src that hold a
// rewrite, whole, and context lines before and after them: what lies on
// the other lines is the same in the view and in src, and Scan has looked
// at it there already.
type viewBuilder struct {
	src      string
	context  int // lines kept before and after a line with a rewrite
	b        []byte
	from, to []int
	done     int // src[:done] is written or skipped
	changed  bool
}

// put replaces src[start:end] with out.
func (vb *viewBuilder) put(start, end int, out string) {
	if !vb.changed {
		vb.changed = true
		vb.b = make([]byte, 0, 256)
		vb.from = make([]int, 0, 256)
		vb.to = make([]int, 0, 256)
	}
	if line := linesBack(vb.src, start, vb.context); line > vb.done {
		vb.endLine()
		if n := len(vb.to); n > 0 && line > vb.done {
			// A blank line between two pieces, so that no line
			// of one runs on into the other.
			vb.b = append(vb.b, '\n')
			vb.from = append(vb.from, vb.to[n-1]-1)
			vb.to = append(vb.to, vb.to[n-1])
		}
		vb.done = max(vb.done, line)
	}
	vb.copyTo(start)
	for k := 0; k < len(out); k++ {
		vb.b = append(vb.b, out[k])
		vb.from = append(vb.from, start)
		vb.to = append(vb.to, end)
	}
	vb.done = end
}

// endLine writes the rest of the line the last rewrite is on (the next
// line, when the rewrite took out a line break).
func (vb *viewBuilder) endLine() {
	end := vb.done
	for n := 0; n <= vb.context && end < len(vb.src); n++ {
		end = min(lineEnd(vb.src, end)+1, len(vb.src))
	}
	vb.copyTo(end)
}

// linesBack returns the start of the line n lines before the one holding
// s[i].
func linesBack(s string, i, n int) int {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	for ; n > 0 && start > 0; n-- {
		start = strings.LastIndexByte(s[:start-1], '\n') + 1
	}
	return start
}

// copyTo writes src[done:i] unchanged.
func (vb *viewBuilder) copyTo(i int) {
	for k := vb.done; k < i; k++ {
		vb.b = append(vb.b, vb.src[k])
		vb.from = append(vb.from, k)
		vb.to = append(vb.to, k+1)
	}
	vb.done = max(vb.done, i)
}

// view returns the view, and false when nothing was rewritten.
func (vb *viewBuilder) view() (view, bool) {
	if !vb.changed {
		return view{}, false
	}
	vb.endLine()
	return view{text: string(vb.b), from: vb.from, to: vb.to}, true
}

// Limits of the decoder.
const (
	maxDecodePasses = 3  // %2541 -> %41 -> A, and escapes inside escapes
	minHexRun       = 20 // hex digits worth decoding: 10 bytes, under any token
	maxEntityName   = 32 // the longest HTML entity name is 31 bytes
)

// decode undoes the disguises a credential can wear and still read the
// same to a person or a program: Unicode compatibility forms (NFKC:
// fullwidth letters, ligatures), invisible characters, %-escapes, \u, \U,
// \u{...} and \x escapes, HTML character references, and runs of hex
// digits that decode to text. It repeats until nothing changes, at most
// maxDecodePasses times; ok is false when the text has no disguise.
func decode(text string) (v view, ok bool) {
	for range maxDecodePasses {
		w, changed := decodeOnce(v.textOr(text))
		if !changed {
			break
		}
		if ok {
			w = v.after(w)
		}
		v, ok = w, true
	}
	return v, ok
}

// textOr returns the view's text, or text when the view is empty.
func (v *view) textOr(text string) string {
	if v.from == nil {
		return text
	}
	return v.text
}

// decodeOnce is one pass of decode.
func decodeOnce(s string) (view, bool) {
	// A line of context each side, for the join view of the decoded text
	// to see a token that a line break splits.
	vb := viewBuilder{src: s, context: 1}
	for i := 0; i < len(s); {
		c := s[i]
		n, out := 0, ""
		switch {
		case c == '%':
			n, out = percentEscape(s, i)
		case c == '\\':
			n, out = backslashEscape(s, i)
		case c == '&':
			n, out = charRef(s, i)
		case c >= utf8.RuneSelf:
			n, out = compatRune(s, i)
		case alnumSet[c] && (i == 0 || !alnumSet[s[i-1]]):
			w := run(s, i, alnumSet)
			if n, out = hexText(s, i, w); n == 0 {
				i += w
				continue
			}
		}
		if n == 0 {
			i++
			continue
		}
		vb.put(i, i+n, out)
		i += n
	}
	return vb.view()
}

// unhex returns the value of a hex digit, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// hexDigits counts the hex digits at s[i:], at most max.
func hexDigits(s string, i, max int) int {
	n := 0
	for i+n < len(s) && n < max && unhex(s[i+n]) >= 0 {
		n++
	}
	return n
}

// hexValue reads the hex number s[i:i+n].
func hexValue(s string, i, n int) rune {
	var r rune
	for k := range n {
		r = r<<4 | rune(unhex(s[i+k]))
	}
	return r
}

// percentEscape reads %XX at s[i:] (URL encoding).
func percentEscape(s string, i int) (int, string) {
	if hexDigits(s, i+1, 2) < 2 {
		return 0, ""
	}
	return 3, string([]byte{byte(hexValue(s, i+1, 2))})
}

// backslashEscape reads \uXXXX, \UXXXXXXXX, \u{X...} or \xXX at s[i:].
func backslashEscape(s string, i int) (int, string) {
	if i+1 >= len(s) {
		return 0, ""
	}
	switch s[i+1] {
	case 'x':
		if hexDigits(s, i+2, 2) == 2 {
			return 4, string([]byte{byte(hexValue(s, i+2, 2))})
		}
	case 'u':
		if i+2 < len(s) && s[i+2] == '{' {
			n := hexDigits(s, i+3, 6)
			if n > 0 && i+3+n < len(s) && s[i+3+n] == '}' {
				return runeOut(4+n, hexValue(s, i+3, n))
			}
		} else if hexDigits(s, i+2, 4) == 4 {
			return runeOut(6, hexValue(s, i+2, 4))
		}
	case 'U':
		if hexDigits(s, i+2, 8) == 8 {
			return runeOut(10, hexValue(s, i+2, 8))
		}
	}
	return 0, ""
}

// runeOut is an escape of n bytes that stands for r, when r is a
// character.
func runeOut(n int, r rune) (int, string) {
	if !utf8.ValidRune(r) || r == 0 {
		return 0, ""
	}
	return n, string(r)
}

// charRef reads an HTML character reference at s[i:]: &#NNN;, &#xHHH;
// (the ';' may be left out, as browsers allow) or a named one such as
// &lowbar;.
func charRef(s string, i int) (int, string) {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		j++
		base, max := 10, 7
		if j < len(s) && (s[j] == 'x' || s[j] == 'X') {
			j, base, max = j+1, 16, 6
		}
		n := 0
		for j+n < len(s) && n < max && (base == 16 && unhex(s[j+n]) >= 0 || '0' <= s[j+n] && s[j+n] <= '9') {
			n++
		}
		if n == 0 {
			return 0, ""
		}
		r, err := strconv.ParseUint(s[j:j+n], base, 32)
		end := j + n
		if end < len(s) && s[end] == ';' {
			end++
		}
		if err != nil {
			return 0, ""
		}
		return runeOut(end-i, rune(r))
	}
	n := 0
	for j+n < len(s) && n < maxEntityName && alnumSet[s[j+n]] {
		n++
	}
	if n < 2 || j+n >= len(s) || s[j+n] != ';' {
		return 0, ""
	}
	ref := s[i : j+n+1]
	if out := html.UnescapeString(ref); out != ref {
		return len(ref), out
	}
	return 0, ""
}

// compatRune reads the character at s[i:] and returns its compatibility
// form (NFKC: fullwidth Ａ is A), or nothing for an invisible character.
func compatRune(s string, i int) (int, string) {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError {
		return 0, ""
	}
	if invisible(r) {
		return size, ""
	}
	c := s[i : i+size]
	if norm.NFKC.IsNormalString(c) {
		return 0, ""
	}
	return size, norm.NFKC.String(c)
}

// hexText reads the run of w letters and digits at s[i:] when it is hex
// (with or without 0x) that decodes to at least minHexRun/2 bytes of
// printable ASCII: text written in hex. A commit hash or a digest decodes
// to random bytes and is left alone.
func hexText(s string, i, w int) (int, string) {
	start := i
	if w > 2 && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') {
		start += 2
	}
	n := i + w - start
	if n < minHexRun || n%2 != 0 || hexDigits(s, start, n) != n {
		return 0, ""
	}
	for k := start; k < start+n; k += 2 {
		if c := byte(hexValue(s, k, 2)); (c < 0x20 || c > 0x7e) && c != '\t' && c != '\n' && c != '\r' {
			return 0, ""
		}
	}
	b := make([]byte, 0, n/2)
	for k := start; k < start+n; k += 2 {
		b = append(b, byte(hexValue(s, k, 2)))
	}
	return w, string(b)
}

// invisible reports whether r is a character that shows nothing and so can
// split a token without a reader seeing it: format characters (zero-width
// space, joiners, word joiner, soft hyphen, byte order mark, direction
// marks and overrides, tag characters), variation selectors and the
// Hangul fillers.
func invisible(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Variation_Selector, r):
		return true
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0:
		return true
	}
	return false
}
