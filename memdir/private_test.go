package memdir

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/memdir/memdir/typesx"
)

func TestStripPrivate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"use key <private>abc123</private> for staging", "use key for staging"},
		{"a<private>x</private>b", "ab"},
		{"<PRIVATE>all of it</Private>", ""},
		{"keep <private>one</private> and <private>two</private> out", "keep and out"},
		{"before <private>never closed", "before "},
		{"stray </private> close", "stray close"},
		{"line one\n<private>\nsecret line\n</private>\nline two", "line one\n\nline two"},
		{"nested <private>a <private>b</private> c</private> d", "nested d"},
		// Every spelling an HTML parser reads as the tag.
		{"a <private >x</private> b", "a b"},
		{"a <private\n>x</private\n> b", "a b"},
		{"a <private\t\r\f>x</private\t> b", "a b"},
		{"a <PRIVATE >x</PRIVATE > b", "a b"},
		{"a <PrIvAtE>x</pRiVaTe> b", "a b"},
		{"a <private class=\"note\">x</private> b", "a b"},
		{"a <private title='1 > 0'>x</private> b", "a b"},
		{"a <private title=\"x>y\" data-k=v>x</private> b", "a b"},
		{"a <private hidden>x</private foo> b", "a b"},
		{"a <private>x</private/> b", "a b"},
		{"a <private/>x</private> b", "a b"},
		{"a <private/> b", "a "},
		{"a <private", "a "},
		{"a <private title=\"never closed>x</private> b", "a "},
		// Not the tag: another name, or no tag at all.
		{"a <privateer>x</privateer> b", "a <privateer>x</privateer> b"},
		{"a < private>x b", "a < private>x b"},
		{"a </ private>x b", "a </ private>x b"},
		{"a <private-note>x b", "a <private-note>x b"},
	} {
		if got := StripPrivate(tc.in); got != tc.want {
			t.Errorf("StripPrivate(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestValidateStripsPrivate(t *testing.T) {
	req := AddRequest{Type: typesx.Project, Name: "Staging <private>box-7</private>",
		Text: "Deploys go through the bastion <private>10.0.0.7 root:hunter2</private> on Fridays.",
		Tags: []string{"<private>x</private>", "ops"}}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{req.Name, req.Body(), strings.Join(req.Tags, ",")} {
		if strings.Contains(s, "box-7") || strings.Contains(s, "hunter2") || strings.Contains(s, "private") {
			t.Errorf("private text survived: %q", s)
		}
	}
	if len(req.Tags) != 1 || req.Tags[0] != "ops" {
		t.Errorf("tags = %q, want [ops]", req.Tags)
	}
	only := AddRequest{Type: typesx.Project, Name: "X", Text: "<private>only this</private>"}
	if err := only.Validate(); err == nil || !IsInput(err) || !strings.Contains(err.Error(), "never stored") {
		t.Errorf("all-private text: err = %v, want an input error saying it is never stored", err)
	}
}

// FuzzStripPrivate checks, against a simple oracle, that no byte inside a
// fence survives and that text outside every fence does.
func FuzzStripPrivate(f *testing.F) {
	for _, s := range []string{"a <private>b</private> c", "<private>", "</private>x", "x<PRIVATE>y", "<private><private>a</private>b</private>",
		"a <private >b</private > c", "a <private\n class='x>y'>b</PRIVATE\t> c", "<private/>x", "a <private"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := StripPrivate(s)
		if tag, ok := htmlPrivateTag(got); ok {
			t.Fatalf("StripPrivate(%q) = %q still holds the tag %q, as an HTML tokenizer reads it", s, got, tag)
		}
		if StripPrivate(got) != got {
			t.Fatalf("not idempotent on %q", s)
		}
		// The oracle: what lies before the first fence always survives
		// (up to the spaces joinAt trims at the seam).
		lower := asciiLower(s)
		first := len(s)
		for _, tag := range []string{"<private", "</private"} {
			if i := strings.Index(lower, tag); i >= 0 && i < first {
				first = i
			}
		}
		// A tag that taking another out joins from the text around it is
		// stripped too, and may take that text with it: the prefix holds
		// when one pass leaves no tag.
		once := asciiLower(stripPrivateOnce(s))
		joined := strings.Contains(once, "<private") || strings.Contains(once, "</private")
		if !joined && !strings.HasPrefix(got, strings.TrimRight(s[:first], " ")) {
			t.Fatalf("StripPrivate(%q) = %q lost the text before the first fence", s, got)
		}
		if first == len(s) && got != s {
			t.Fatalf("StripPrivate(%q) = %q changed text without fences", s, got)
		}
	})
}

// TestStripPrivateJoinedTag checks that a tag formed by taking another
// out does not let the text it fences through.
func TestStripPrivateJoinedTag(t *testing.T) {
	for _, s := range []string{
		"a <pri<private>x</private>vate>SECRET</private> b",
		"a <pri</private>vate>SECRET</private> b",
		"<<private>x</private>private>SECRET<</private>/private>",
	} {
		if got := StripPrivate(s); strings.Contains(got, "SECRET") {
			t.Errorf("StripPrivate(%q) = %q let the fenced text through", s, got)
		}
	}
}

// htmlPrivateTag returns the first private tag that golang.org/x/net/html's
// tokenizer (an HTML parser's first stage, independent of StripPrivate)
// finds in s.
func htmlPrivateTag(s string) (string, bool) {
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return "", false
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			if name, _ := z.TagName(); string(name) == "private" {
				return string(z.Raw()), true
			}
		}
	}
}

// TestStripPrivateHTMLSpellings checks, against x/net/html's tokenizer,
// that each spelling of the tag in TestStripPrivate is a tag to an HTML
// parser and that StripPrivate leaves none of it.
func TestStripPrivateHTMLSpellings(t *testing.T) {
	for _, s := range []string{"<private >", "<private\n>", "<PRIVATE>", "<private class=\"a>b\">", "</private >", "</private foo>", "<private/>", "</private\t>"} {
		if _, ok := htmlPrivateTag(s); !ok {
			t.Errorf("%q is not a private tag to the HTML tokenizer", s)
		}
		in := "a " + s + "y</private> b"
		if strings.HasPrefix(s, "</") {
			in = "a <private>x" + s + " b"
		}
		if got := StripPrivate(in); got != "a b" {
			t.Errorf("StripPrivate(%q) = %q, want %q", in, got, "a b")
		}
	}
}
