package viewer

import (
	"strings"
	"testing"
)

func topicLink(f string) string { return "/p/x/topic/" + f }

func TestSafeDestination(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"https://example.com/a?b=c", "https://example.com/a?b=c", true},
		{"HTTP://example.com", "http://example.com", true},
		{"mailto:a@example.com", "mailto:a@example.com", true},
		{"#section", "#section", true},
		{"feedback_testing_policy.md", "/p/x/topic/feedback_testing_policy.md", true},
		{"./user_role.md", "/p/x/topic/user_role.md", true},
		{"javascript:alert(1)", "", false},
		{"JaVaScRiPt:alert(1)", "", false},
		{" javascript:alert(1)", "", false},
		{"vbscript:x", "", false},
		{"data:text/html,<script>", "", false},
		{"data:image/png;base64,AAAA", "", false},
		{"file:///etc/passwd", "", false},
		{"//evil.example/x.md", "", false},
		{"/etc/passwd", "", false},
		{"../other/feedback_x.md", "", false},
		{"logs/2026/11/2026-11-22.md", "", false},
		{"MEMORY.md", "", false},
		{"notes.txt", "", false},
		{"http:foo", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		got, ok := safeDestination(tc.in, topicLink)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("safeDestination(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRenderMarkdown(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"See [policy](feedback_testing_policy.md).", []string{`<a href="/p/x/topic/feedback_testing_policy.md">policy</a>`}},
		{"[evil](javascript:alert(1)) after", []string{"<p>evil after</p>"}},
		{"<script>alert(1)</script>", []string{"<!-- raw HTML omitted -->"}},
		{"x <img src=x onerror=alert(1)> y", []string{"<!-- raw HTML omitted -->"}},
		{"![pic](javascript:alert(1))", []string{"<p>pic</p>"}},
		{"<javascript:alert(1)>", []string{"<p>javascript:alert(1)</p>"}},
		{"www.example.com", []string{`<a href="http://www.example.com">`}},
		{"| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>"}},
	}
	for _, tc := range tests {
		got := string(renderMarkdown([]byte(tc.in), topicLink, "/raw"))
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("render %q = %q; want %q in it", tc.in, got, w)
			}
		}
		for _, p := range inertProblems(got) {
			t.Errorf("render %q: %s", tc.in, p)
		}
	}
}

// FuzzRenderMarkdown checks, with an HTML parser as the oracle, that no
// markdown renders to anything that runs script or loads from elsewhere.
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{hostileBody, "[a](b.md)", "<a href=\"javascript:x\">", "[x](&#106;avascript:alert(1))",
		"[x](java\nscript:alert(1))", "<http://a.b/c>", "[x]: javascript:alert(1)\n\n[y][x]", "` <script>` `", "&lt;script&gt;",
		"<svg onload=alert(1)>", "[x](<javascript:alert(1)>)", "![x](data:image/png;base64,AAAA)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got := string(renderMarkdown([]byte(src), topicLink, "/raw"))
		for _, p := range inertProblems(got) {
			t.Fatalf("render %q: %s\n%s", src, p, got)
		}
	})
}
