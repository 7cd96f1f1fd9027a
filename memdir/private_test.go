package memdir

import (
	"strings"
	"testing"

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
	for _, s := range []string{"a <private>b</private> c", "<private>", "</private>x", "x<PRIVATE>y", "<private><private>a</private>b</private>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := StripPrivate(s)
		if l := asciiLower(got); strings.Contains(l, "<private>") || strings.Contains(l, "</private>") {
			t.Fatalf("StripPrivate(%q) = %q still holds a tag", s, got)
		}
		if StripPrivate(got) != got {
			t.Fatalf("not idempotent on %q", s)
		}
		// The oracle: what lies before the first fence always survives
		// (up to the spaces joinAt trims at the seam).
		lower := asciiLower(s)
		first := len(s)
		for _, tag := range []string{"<private>", "</private>"} {
			if i := strings.Index(lower, tag); i >= 0 && i < first {
				first = i
			}
		}
		// A tag that taking another out joins from the text around it is
		// stripped too, and may take that text with it: the prefix holds
		// when one pass leaves no tag.
		once := asciiLower(stripPrivateOnce(s))
		joined := strings.Contains(once, "<private>") || strings.Contains(once, "</private>")
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
