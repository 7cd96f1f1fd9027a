package memdir

import (
	"strings"
)

// privateName is the name of the tag that fences text a person wants kept
// out of memory.
const privateName = "private"

// StripPrivate removes every <private>...</private> span from s, tags
// included. A tag is recognised in every spelling an HTML parser reads as
// that tag: any case, blanks or attributes before the '>' (<private >,
// <PRIVATE>, <private\n>, <private class="x">, <private/>, which HTML
// reads as an opening tag), and the same for the closing tag (</private >).
// Fences nest; an opening tag with no closing tag hides the rest of the
// text, as does a tag with no '>', and a stray closing tag is dropped:
// when in doubt, store less. Where a span sat between two words, one space
// is kept.
//
// Every way into memory (memdir add, the MCP server, hook capture) goes
// through AddRequest.Validate, which calls this first, so fenced text is
// never written anywhere: not to a topic, not to a daily log, not to git.
func StripPrivate(s string) string {
	// Taking a tag out can join the text around it into a new tag
	// ("<pri<private>x</private>vate>"): strip until nothing changes. Each
	// pass that changes the text shortens it, so this ends.
	for {
		out := stripPrivateOnce(s)
		if out == s {
			return out
		}
		s = out
	}
}

// stripPrivateOnce takes out the fenced spans and the tags once.
func stripPrivateOnce(s string) string {
	lower := asciiLower(s) // byte for byte, so indexes stay valid in s
	if !strings.Contains(lower, "<"+privateName) && !strings.Contains(lower, "</"+privateName) {
		return s
	}
	var b strings.Builder
	depth, i := 0, 0
	for i < len(s) {
		at, end, closing := nextPrivateTag(lower, i)
		if at < 0 {
			if depth == 0 {
				joinAt(&b, s[i:])
			}
			break
		}
		if depth == 0 {
			joinAt(&b, s[i:at])
		}
		switch {
		case !closing:
			depth++
		case depth > 0:
			depth--
		}
		i = end
	}
	return b.String()
}

// nextPrivateTag finds the first private tag in lower from i on: its
// span [at, end) and whether it closes; at is -1 when there is none.
func nextPrivateTag(lower string, i int) (at, end int, closing bool) {
	for {
		k := strings.IndexByte(lower[i:], '<')
		if k < 0 {
			return -1, 0, false
		}
		at = i + k
		j := at + 1
		closing = j < len(lower) && lower[j] == '/'
		if closing {
			j++
		}
		if strings.HasPrefix(lower[j:], privateName) {
			j += len(privateName)
			// The name ends at a blank, '/' or '>' (or the end of the
			// text); <privateer> is another tag.
			if j == len(lower) || strings.IndexByte(" \t\n\f\r/>", lower[j]) >= 0 {
				return at, tagEnd(lower, j), closing
			}
		}
		i = at + 1
	}
}

// tagEnd returns the offset just past the '>' that closes the tag whose
// attributes start at s[i:], reading them as an HTML tokenizer does: a
// '>' inside a quoted attribute value does not close the tag. A tag that
// never closes runs to the end of s.
func tagEnd(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c == '>':
			return i + 1
		case c == '=':
			// An attribute value, after blanks: quoted, it runs to its
			// closing quote.
			i++
			for i < len(s) && strings.IndexByte(" \t\n\f\r", s[i]) >= 0 {
				i++
			}
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				q := strings.IndexByte(s[i+1:], s[i])
				if q < 0 {
					return len(s)
				}
				i += q + 2
			}
		default:
			i++
		}
	}
	return len(s)
}

// asciiLower lowers A-Z only; unlike strings.ToLower it never changes a
// string's length, even for invalid UTF-8.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// joinAt appends piece to b, keeping a single space where a removed span
// sat between two spaces.
func joinAt(b *strings.Builder, piece string) {
	if b.Len() > 0 && strings.HasSuffix(b.String(), " ") {
		piece = strings.TrimLeft(piece, " ")
	}
	b.WriteString(piece)
}

// stripPrivate applies StripPrivate to every text field of a request; tags
// that were wholly private go.
func (r *AddRequest) stripPrivate() {
	r.Name = strings.TrimSpace(StripPrivate(r.Name))
	r.Text = StripPrivate(r.Text)
	r.Description = strings.TrimSpace(StripPrivate(r.Description))
	r.Why = StripPrivate(r.Why)
	r.How = StripPrivate(r.How)
	tags := r.Tags[:0:0]
	for _, t := range r.Tags {
		// A tag that was all private goes; an empty one stays, for
		// Validate to refuse.
		if s := strings.TrimSpace(StripPrivate(t)); s != "" || strings.TrimSpace(t) == "" {
			tags = append(tags, s)
		}
	}
	if r.Tags != nil {
		r.Tags = tags
	}
}
