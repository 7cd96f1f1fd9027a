package memdir

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/typesx"
)

// Limits on what a topic may hold.
const (
	MaxNameLen        = 100   // runes in a topic name
	MaxDescriptionLen = 150   // runes in a description memdir derives
	MaxBodyBytes      = 40000 // bytes in a topic body
	maxSlugLen        = 60    // bytes in the slug part of a file name
)

// ValidateName checks a topic name: not empty, not too long, never
// anything that could be read as a path, no control or invisible
// character, and a letter or digit. Every way a name gets in (add, edit,
// restore, MCP, a distiller's answer) goes through it; NormalizeName
// first.
func ValidateName(name string) error {
	trimmed := strings.TrimSpace(name)
	switch {
	case trimmed == "":
		return &InputError{Msg: "the topic name is empty: give a short title such as \"Testing policy\""}
	case !utf8.ValidString(name):
		return &InputError{Msg: "the topic name is not valid UTF-8"}
	case utf8.RuneCountInString(trimmed) > MaxNameLen:
		return &InputError{Msg: fmt.Sprintf("the topic name is %d characters long: keep it under %d and put detail in the text", utf8.RuneCountInString(trimmed), MaxNameLen)}
	case strings.ContainsAny(name, "/\\"):
		return &InputError{Msg: fmt.Sprintf("the topic name %q contains a slash: names are titles, not paths", name)}
	case strings.Contains(name, ".."):
		return &InputError{Msg: fmt.Sprintf("the topic name %q contains \"..\": names are titles, not paths", name)}
	}
	for _, r := range name {
		if r == 0 || unicode.IsControl(r) {
			return &InputError{Msg: fmt.Sprintf("the topic name %q contains a control character", name)}
		}
	}
	return checkNameRunes(trimmed)
}

// Slugify turns a name into lowercase ASCII words joined by "_", at most
// about 60 bytes, cut at a word boundary; letters outside ASCII are
// transliterated first ("Müller contact" -> muller_contact, "Привет" ->
// privet, "メモ" -> memo). A name with no ASCII letters or digits even so
// (Han characters) gets a short hash instead, and so does one whose words secrets.Scan
// would refuse (creds_ghp_..., from "Creds ghp%5F..." or "Creds ghp.…"): a
// file name goes into MEMORY.md, every commit and every listing, and must
// never be what lint and commit refuse.
func Slugify(name string) string {
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range strings.ToLower(transliterate(name)) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			cur.WriteRune(r)
			continue
		}
		flush()
	}
	flush()
	var b strings.Builder
	for _, w := range words {
		if b.Len() > 0 && b.Len()+1+len(w) > maxSlugLen {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('_')
		}
		b.WriteString(w)
	}
	s := b.String()
	if len(s) > maxSlugLen {
		s = s[:maxSlugLen]
	}
	if s == "" || len(secrets.Scan(s)) > 0 {
		sum := sha256.Sum256([]byte(name))
		s = "topic_" + hex.EncodeToString(sum[:4])
	}
	return s
}

// FileName is the topic file name for a type and a name: <type>_<slug>.md.
func FileName(t typesx.Type, name string) string {
	return string(t) + "_" + Slugify(name) + ".md"
}

// Describe derives a description from a text: its first sentence, on one
// line, cut at a word boundary to about 150 characters.
func Describe(text string) string {
	s := strings.Join(strings.Fields(stripMarkup(text)), " ")
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?') && (i+1 == len(s) || s[i+1] == ' ') {
			s = s[:i+1]
			break
		}
	}
	return Shorten(s, MaxDescriptionLen)
}

// Shorten cuts s to at most n runes at a word boundary, marking the cut
// with "…".
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:-") + "…"
}

// stripMarkup returns the first paragraph of text without the markdown a
// description should not carry: headings, emphasis stars, bullets.
func stripMarkup(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue // a heading names the text; the description says it
		}
		line = strings.TrimLeft(line, ">-*+ ")
		if line == "" {
			if b.Len() > 0 {
				break
			}
			continue
		}
		b.WriteString(line)
		b.WriteByte(' ')
	}
	return strings.ReplaceAll(b.String(), "**", "")
}
