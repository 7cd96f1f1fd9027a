package memdir

import (
	"strconv"
	"strings"
	"unicode"
)

// WithArticle puts "a" or "an" before a noun phrase as it is said:
// "an AWS access key ID", "a GitHub token", "an SSH key", "a URL", "an
// OpenAI key". Acronyms go by the name of their first letter.
func WithArticle(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if word == "" {
		return s
	}
	first := []rune(word)[0]
	an := false
	acronym := len(word) > 1 && strings.IndexFunc(word, func(r rune) bool { return unicode.IsLower(r) }) < 0
	switch lw := strings.ToLower(word); {
	case acronym:
		an = strings.ContainsRune("AEFHILMNORSX8", first)
	case strings.HasPrefix(lw, "uni"), strings.HasPrefix(lw, "use"), strings.HasPrefix(lw, "one"), strings.HasPrefix(lw, "eu"):
		an = false
	case strings.HasPrefix(lw, "hour"), strings.HasPrefix(lw, "honest"):
		an = true
	default:
		an = strings.ContainsRune("aeiouAEIOU", first)
	}
	if an {
		return "an " + s
	}
	return "a " + s
}

// Count says n of a noun in the right number: "1 file", "2 files",
// "3 entries". plural is the noun's plural when it is neither one + "s"
// nor, for a consonant and y, one + "ies".
func Count(n int, one string, plural ...string) string {
	if n == 1 {
		return "1 " + one
	}
	many := one + "s"
	switch {
	case len(plural) > 0:
		many = plural[0]
	case len(one) > 1 && strings.HasSuffix(one, "y") && !strings.ContainsRune("aeiou", rune(one[len(one)-2])):
		many = one[:len(one)-1] + "ies"
	}
	return strconv.Itoa(n) + " " + many
}
