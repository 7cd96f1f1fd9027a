package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hostileTopics are bodies that stall goldmark uncut: each is cut before
// it renders, for the reason named.
var hostileTopics = []struct {
	name, reason string
	body         func() string
}{
	{"4 MB nested list", "nests block quotes or lists", func() string {
		var b strings.Builder
		for i := 0; b.Len() < 4<<20; i++ {
			b.WriteString(strings.Repeat("  ", i%2000) + "- item\n")
		}
		return b.String()
	}},
	{"deep block quotes", "nests block quotes or lists", func() string {
		return strings.Repeat(strings.Repeat(">", 1000)+" quoted\n", 4000)
	}},
	{"block quotes on one line", "nests block quotes or lists", func() string { return strings.Repeat("> ", 1<<20) }},
	{"nested ordered lists", "nests block quotes or lists", func() string { return strings.Repeat("1. ", 1000) + "x\n" }},
	{"100,000 reference links", "link references", func() string {
		var b strings.Builder
		for i := range 100000 {
			b.WriteString("[r" + strconv.Itoa(i) + "]: https://example.com/" + strconv.Itoa(i) + "\n")
		}
		for i := range 100000 {
			b.WriteString("[x][r" + strconv.Itoa(i) + "] ")
		}
		return b.String()
	}},
	{"a wide table", "cells", func() string {
		return strings.Repeat("|a", 2000) + "\n" + strings.Repeat("|-", 2000) + "\n" + strings.Repeat("a\n", 5000)
	}},
	{"a line of unfinished links", "open more links", func() string { return strings.Repeat("[a](", 4000) + "\n" }},
	{"4 MB of brackets", "longer than", func() string { return strings.Repeat("[", 4<<20) }},
}

// TestBoundMarkdown: each hostile topic is cut, for its reason, to at
// most renderMaxBytes, and its page says so and links to the raw file;
// real topics (fenced code indented deep, a table, some links) are not.
func TestBoundMarkdown(t *testing.T) {
	for _, tc := range hostileTopics {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.body())
			head, cut := boundMarkdown(src)
			if cut == nil || !strings.Contains(cut.Reason, tc.reason) {
				t.Fatalf("cut = %+v, want one because %q", cut, tc.reason)
			}
			if len(head) > renderMaxBytes || !bytes.HasPrefix(src, head) {
				t.Fatalf("head of %d bytes, not a prefix of at most %d", len(head), renderMaxBytes)
			}
			got := string(renderMarkdown(src, topicLink, "/p/x/topic/t.md/raw"))
			if !strings.Contains(got, `<p class="cut">`) || !strings.Contains(got, `<a href="/p/x/topic/t.md/raw">`) {
				t.Errorf("render has no note linking to the raw file: %.300q", got)
			}
		})
	}
	deepCode := "```go\n" + strings.Repeat(strings.Repeat("\t", 40)+"x()\n", 10) + "```\n"
	table := strings.Repeat("| a ", 10) + "|\n" + strings.Repeat("|---", 10) + "|\n" + strings.Repeat(strings.Repeat("| [l](feedback_x.md) ", 10)+"|\n", 50)
	nested := "- a\n  - b\n    - c\n      > d\n      > > e\n"
	for _, src := range []string{deepCode, table, nested, strings.Repeat("See [a](https://a.example) and [b][b].\n", 200) + "\n[b]: https://b.example\n"} {
		if head, cut := boundMarkdown([]byte(src)); cut != nil || string(head) != src {
			t.Errorf("a real topic was cut: %+v\n%.200s", cut, src)
		}
	}
}

// TestTopicPageCut serves a hostile topic: its page renders the start
// with the note, the note's link gives the whole file as text, and a
// private topic's raw file is hidden until asked.
func TestTopicPageCut(t *testing.T) {
	f := start(t)
	body := hostileTopics[0].body()
	file := "project_nested.md"
	src := "---\nname: Nested\ndescription: a nested list\ntype: project\n---\n\n" + body
	if err := os.WriteFile(filepath.Join(f.dir.Path, file), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, page := f.get(t, "/p/p1/topic/"+file)
	if code != 200 || !strings.Contains(page, "The rest of this file is not shown: it nests") || !strings.Contains(page, `href="/p/p1/topic/project_nested.md/raw"`) {
		t.Fatalf("topic page %d: want the cut note and the raw link", code)
	}
	if len(page) > 2*renderMaxBytes {
		t.Errorf("page of %d bytes", len(page))
	}
	resp, err := f.client.Get(f.base + "/p/p1/topic/" + file + "/raw")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw bytes.Buffer
	raw.ReadFrom(resp.Body)
	if resp.StatusCode != 200 || raw.String() != src || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("raw: %d %q, %d bytes; want the file as text", resp.StatusCode, resp.Header.Get("Content-Type"), raw.Len())
	}
	if code, page := f.get(t, "/p/p1/topic/reference_payroll_secrets.md/raw"); code != 404 || strings.Contains(page, "zebra") {
		t.Errorf("a private topic's raw file without the switch: %d", code)
	}
	if code, page := f.get(t, "/p/p1/topic/reference_payroll_secrets.md/raw?private=1"); code != 200 || !strings.Contains(page, "zebra") {
		t.Errorf("a private topic's raw file with the switch: %d", code)
	}
}

// FuzzBoundMarkdown: what is rendered is a prefix of the file within the
// size cap, cut only with a reason, and passes the caps itself.
func FuzzBoundMarkdown(f *testing.F) {
	for _, s := range []string{"- a\n  - b\n", "> > x", "```\n" + strings.Repeat(" ", 200) + "x\n```\n", "|a|b|\n|-|-|\n1\n",
		"[a]: b\n[c]: d\n", "1. 2) 3. x", "\t\t- x", strings.Repeat("> ", 40), "[a](" + strings.Repeat("x", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		head, cut := boundMarkdown([]byte(src))
		if !strings.HasPrefix(src, string(head)) || len(head) > renderMaxBytes {
			t.Fatalf("head %q of %q", head, src)
		}
		if (cut == nil) != (len(head) == len(src)) || cut != nil && cut.Reason == "" {
			t.Fatalf("cut %+v for a head of %d of %d bytes", cut, len(head), len(src))
		}
		if again, cut2 := boundMarkdown(head); cut2 != nil || !bytes.Equal(again, head) {
			t.Fatalf("the head %q is cut again: %+v", head, cut2)
		}
	})
}

// BenchmarkRenderHostile renders each hostile topic: the viewer's worst
// page times (scripts and the closing note quote it).
func BenchmarkRenderHostile(b *testing.B) {
	for _, tc := range hostileTopics {
		src := []byte(tc.body())
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				renderMarkdown(src, topicLink, "/raw")
			}
		})
	}
}
