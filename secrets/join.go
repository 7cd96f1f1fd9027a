package secrets

// Limits of the join view.
const (
	maxJoinGap  = 16 // bytes of blanks between two pieces of a token
	minTokenish = 8  // bytes of a piece that looks like part of a token
)

// join returns text with the separators taken out that split a token: the
// blanks between two pieces of one (a space, a tab, or a line break and
// the indentation after it) and the dashes of one written in groups of
// four. Blanks go only between two pieces that are not plain words when
// one of them looks like token material (see tokenish), so that prose
// keeps its words apart. ok is false when there is nothing to take out.
// Scan reports what it finds in the view only when it spans a removed
// separator and looks generated (scrambled).
func join(text string) (view, bool) {
	vb := viewBuilder{src: text}
	prevStart, prevEnd := -1, -1
	for i := 0; i < len(text); {
		if !wordByte(text[i]) {
			i++
			continue
		}
		end := i + wordRun(text, i)
		if prevEnd >= 0 && blankGap(text[prevEnd:i]) && joinable(text[prevStart:prevEnd], text[i:end]) {
			vb.put(prevEnd, i, "")
		}
		prevStart, prevEnd = i, end
		if end < len(text) && text[end] == '-' {
			prevStart, prevEnd = dashChain(&vb, text, i)
		}
		i = prevEnd
	}
	return vb.view()
}

// dashChain reads the groups of word bytes joined by single dashes from
// text[i:] on and, when there are three or more and every group but the
// first and the last is four bytes long (ghp_-tN3J-ui71-...), takes the
// dashes out. It returns the span of the last group.
func dashChain(vb *viewBuilder, text string, i int) (lastStart, lastEnd int) {
	groups, four := 1, true
	start, end := i, i+wordRun(text, i)
	for end+1 < len(text) && text[end] == '-' && wordByte(text[end+1]) {
		four = four && (groups == 1 || end-start == 4)
		groups++
		start, end = end+1, end+1+wordRun(text, end+1)
	}
	if four && groups >= 3 {
		for k := i; k < end; k++ {
			if text[k] == '-' {
				vb.put(k, k+1, "")
			}
		}
	}
	return start, end
}

// wordByte reports whether c is a letter, a digit or '_'.
func wordByte(c byte) bool { return alnumSet[c] || c == '_' }

// wordRun counts the word bytes of s from i on.
func wordRun(s string, i int) int {
	n := 0
	for i+n < len(s) && wordByte(s[i+n]) {
		n++
	}
	return n
}

// blankGap reports whether gap is blanks with at most one line break.
func blankGap(gap string) bool {
	if gap == "" || len(gap) > maxJoinGap {
		return false
	}
	breaks := 0
	for i := 0; i < len(gap); i++ {
		switch gap[i] {
		case '\n':
			breaks++
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return breaks <= 1
}

// joinable reports whether two pieces around blanks may be one token cut in
// two: neither is a plain word and one looks like token material.
func joinable(l, r string) bool {
	return !proseWord(l) && !proseWord(r) &&
		(len(l) >= minTokenish && tokenish(l) || len(r) >= minTokenish && tokenish(r))
}

// proseWord reports whether w is a word of prose: letters, all lowercase
// after the first. (A piece of a token cut off short may read as one too;
// it is then left apart, and the rest of the token still has to be found
// on its own.)
func proseWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !('a' <= c && c <= 'z' || i == 0 && 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return w != ""
}

// tokenish reports whether w looks like token material rather than a
// word: letters and digits mixed, an underscore, a capital after a small
// letter inside (tN3J), or capitals alone (AKIAIOSF).
func tokenish(w string) bool {
	var up, low, dig, under, hump bool
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case 'A' <= c && c <= 'Z':
			up = true
			hump = hump || i > 0 && 'a' <= w[i-1] && w[i-1] <= 'z'
		case 'a' <= c && c <= 'z':
			low = true
		case '0' <= c && c <= '9':
			dig = true
		case c == '_':
			under = true
		}
	}
	return dig && (up || low) || under || hump || up && !low
}

// scrambled reports whether s, found across a removed separator, looks
// generated: letters and digits and several distinct bytes.
func scrambled(s string) bool {
	return hasDigit(s) && hasLetter(s) && distinct(s) >= minRandomBytes
}

// crosses reports whether the match m of the view spans a removed byte.
func (v *view) crosses(m match) bool {
	return v.to[m.end-1]-v.from[m.start] > m.end-m.start
}
