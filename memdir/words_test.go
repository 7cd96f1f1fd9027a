package memdir

import "testing"

func TestWithArticle(t *testing.T) {
	for in, want := range map[string]string{
		"AWS access key ID":   "an AWS access key ID",
		"GitHub token":        "a GitHub token",
		"SSH private key":     "an SSH private key",
		"URL with a password": "a URL with a password",
		"OpenAI API key":      "an OpenAI API key",
		"private key":         "a private key",
		"user password":       "a user password",
		"RSA key":             "an RSA key",
		"JWT":                 "a JWT",
	} {
		if got := WithArticle(in); got != want {
			t.Errorf("WithArticle(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 files"}, {1, "1 file"}, {2, "2 files"}} {
		if got := Count(tc.n, "file"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := Count(3, "entry"); got != "3 entries" {
		t.Errorf("Count(3, entry) = %q", got)
	}
	if got := Count(2, "day"); got != "2 days" {
		t.Errorf("Count(2, day) = %q", got)
	}
}
