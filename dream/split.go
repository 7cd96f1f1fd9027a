package dream

import (
	"errors"
	"strings"
)

// SplitCommand splits a command line into words the way a POSIX shell
// does for plain words and quotes: blanks separate words, '...' keeps
// everything literally, "..." keeps everything but \" \\ \$ \` escapes,
// and a backslash outside quotes escapes the next character. There is no
// expansion, globbing, piping or redirection: wrap the command in
// sh -c '...' for those.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			n, err := doubleQuoted(s[i+1:], &cur)
			if err != nil {
				return nil, err
			}
			i += n
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// doubleQuoted copies a "..." word's inside from s (just after the
// opening quote) and returns how many bytes it used, closing quote
// included.
func doubleQuoted(s string, cur *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
				i++
				cur.WriteByte(s[i])
				continue
			}
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
		}
	}
	return 0, errors.New(`unterminated " quote`)
}
