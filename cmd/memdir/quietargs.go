package main

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/secrets"
)

// maxEchoedArg is the longest argument a command-line error repeats.
const maxEchoedArg = 32

// quietArgs rewrites an error cobra or pflag gave about the command line so
// that it does not echo an argument that may be a secret: text that starts
// with a dash (a PEM key's -----BEGIN line) is taken for a flag, and the
// error would print the whole key back to the terminal and its logs. Such
// an argument is named by its position instead; any other long argument,
// one that looks like a credential, and the value of a --flag=value are
// cut to their first characters.
func quietArgs(msg string, args []string) string {
	if bad, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		for i, a := range args {
			if a == bad {
				return fmt.Sprintf("argument %d starts with %q but is not a flag: put -- before text that starts with a dash, as in `memdir add TYPE NAME -- TEXT`", i+1, leading(a, 3))
			}
		}
		return "an argument starts with a dash but is not a flag: put -- before text that starts with a dash, as in `memdir add TYPE NAME -- TEXT`"
	}
	for _, a := range args {
		if a == "" || !strings.Contains(msg, a) {
			continue
		}
		if len(a) > maxEchoedArg || len(secrets.Scan(a)) > 0 {
			msg = strings.ReplaceAll(msg, a, leading(a, 4)+"…")
		}
	}
	// A value given as --flag=value is quoted alone when it is invalid.
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") && len(v) > 4 {
			msg = strings.ReplaceAll(msg, v, leading(v, 4)+"…")
		}
	}
	return msg
}

// leading returns the first n bytes of s, fewer if s is shorter, without
// cutting a UTF-8 sequence.
func leading(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
