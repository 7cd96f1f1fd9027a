package memdir

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// NormalizeName returns a topic name as memdir stores and compares it:
// trimmed and in Unicode NFC, so that "café" typed precomposed or with a
// combining accent is one name and one file.
func NormalizeName(name string) string {
	return norm.NFC.String(strings.TrimSpace(name))
}

// checkNameRunes refuses, for ValidateName and lint, what a title must
// not hold beyond a path or a control character: invisible format
// characters (direction overrides and isolates such as U+202E, zero-width
// spaces and joiners, the BOM), which make a name read differently from
// what it is, and a name with no letter or digit at all ("-", "…"), which
// names nothing and gives no file name.
func checkNameRunes(name string) error {
	for _, r := range name {
		if unicode.Is(unicode.Cf, r) {
			return &InputError{Msg: fmt.Sprintf("the topic name %q contains the invisible character U+%04X: names are plain titles; retype it without", name, r)}
		}
	}
	if strings.IndexFunc(name, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return &InputError{Msg: fmt.Sprintf("the topic name %q has no letter or digit: give a short title such as \"Testing policy\"", name)}
	}
	return nil
}

// checkText normalises the request's name (NFC) and refuses any text
// that is not valid UTF-8: memory is plain text.
func (r *AddRequest) checkText() error {
	for what, s := range map[string]string{"name": r.Name, "text": r.Text, "description": r.Description, "why": r.Why, "how": r.How, "tags": strings.Join(r.Tags, "")} {
		if !utf8.ValidString(s) {
			return &InputError{Msg: fmt.Sprintf("the %s is not valid UTF-8 text: memory is plain text; convert it (iconv -t UTF-8) and try again", what)}
		}
	}
	r.Name = NormalizeName(r.Name) // ValidateName then checks it
	return nil
}

// checkTopicText applies the same rules to a topic written another way
// (an edit, a restore).
func checkTopicText(t *Topic) error {
	if !utf8.ValidString(t.Body) || !utf8.ValidString(t.Description) {
		return &InputError{Msg: fmt.Sprintf("%s is not valid UTF-8 text: memory is plain text", t.File)}
	}
	t.Name = NormalizeName(t.Name) // validateTopic has checked it with ValidateName
	return nil
}
