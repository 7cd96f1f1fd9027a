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

// nameKey is a topic name as spelling compares it: transliterated,
// lowercase, with runs of spaces, hyphens, underscores and dots made one
// space ("testing-policy", "Testing  policy" and "testing_policy" are one
// key); other symbols count ("C++ tips" is not "C tips").
func nameKey(name string) string {
	f := strings.FieldsFunc(strings.ToLower(transliterate(name)), func(r rune) bool {
		return unicode.IsSpace(r) || r == '-' || r == '_' || r == '.'
	})
	return strings.Join(f, " ")
}

// minTypoKey is the shortest name key a one-letter slip may join: shorter
// names ("Role", "Rule") differ by a letter and mean different things.
const minTypoKey = 8

// SameSubject reports whether two topic names name one subject: the same
// words spelled another way (case, hyphens, accents), or, in a name of at
// least minTypoKey characters, one letter mistyped, missing, added or
// swapped with its neighbour. A difference in a digit never counts
// ("Release 1.2" is not "Release 1.3").
func SameSubject(a, b string) bool {
	ka, kb := []rune(nameKey(a)), []rune(nameKey(b))
	if string(ka) == string(kb) {
		return true
	}
	if len(ka) < minTypoKey || len(kb) < minTypoKey {
		return false
	}
	if len(ka) > len(kb) {
		ka, kb = kb, ka
	}
	i := 0
	for i < len(ka) && ka[i] == kb[i] {
		i++
	}
	letter := func(r rune) bool { return unicode.IsLetter(r) }
	switch len(kb) - len(ka) {
	case 0:
		if i+1 < len(ka) && ka[i] == kb[i+1] && ka[i+1] == kb[i] && string(ka[i+2:]) == string(kb[i+2:]) {
			return letter(ka[i]) && letter(ka[i+1])
		}
		return string(ka[i+1:]) == string(kb[i+1:]) && letter(ka[i]) && letter(kb[i])
	case 1:
		return string(ka[i:]) == string(kb[i+1:]) && letter(kb[i])
	}
	return false
}
