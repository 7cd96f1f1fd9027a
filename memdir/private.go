package memdir

import (
	"strings"
)

// The tags that fence text a person wants kept out of memory.
const (
	privateOpen  = "<private>"
	privateClose = "</private>"
)

// StripPrivate removes every <private>...</private> span from s, tags
// included (any case). Fences nest; an opening tag with no closing tag
// hides the rest of the text, and a stray closing tag is dropped: when in
// doubt, store less. Where a span sat between two words, one space is kept.
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
	if !strings.Contains(lower, privateOpen) && !strings.Contains(lower, privateClose) {
		return s
	}
	var b strings.Builder
	depth, i := 0, 0
	for i < len(s) {
		open := strings.Index(lower[i:], privateOpen)
		closing := strings.Index(lower[i:], privateClose)
		next, isOpen := closing, false
		if open >= 0 && (closing < 0 || open < closing) {
			next, isOpen = open, true
		}
		if next < 0 {
			if depth == 0 {
				joinAt(&b, s[i:])
			}
			break
		}
		if depth == 0 {
			joinAt(&b, s[i:i+next])
		}
		switch {
		case isOpen:
			depth++
			i += next + len(privateOpen)
		default:
			if depth > 0 {
				depth--
			}
			i += next + len(privateClose)
		}
	}
	return b.String()
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
