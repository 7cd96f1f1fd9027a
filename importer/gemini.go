package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/untrusted"
)

// Gemini CLI (0.61.0, packages/core/src/tools/memoryTool.ts): save_memory
// appends "- <fact>" under the heading "## Gemini Added Memories" of the
// user's GEMINI.md (~/.gemini/GEMINI.md, or the file named by
// context.fileName); the section runs to the next "\n## ". PATH is that
// file, or a directory holding GEMINI.md.

// GeminiHeader is the heading Gemini CLI's save_memory writes under.
const GeminiHeader = "## Gemini Added Memories"

func readGemini(path string) ([]Memory, []Skip, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "GEMINI.md")
	}
	data, err := untrusted.ReadFile(path, "", MaxFile)
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("read %s: %v", path, err), Err: err}
	}
	facts, ok := GeminiFacts(string(data))
	if !ok {
		return nil, nil, &InputError{Msg: fmt.Sprintf("%s has no %q section: nothing Gemini CLI saved", path, GeminiHeader)}
	}
	var mems []Memory
	for _, f := range facts {
		mems = append(mems, Memory{Source: fmt.Sprintf("%s:%d", path, f.Line), Name: nameOf(f.Text), Text: f.Text})
	}
	return mems, nil, nil
}

// Fact is one saved memory and its line in the file.
type Fact struct {
	Line int
	Text string
}

// GeminiFacts returns the facts of text's "## Gemini Added Memories"
// section, as Gemini CLI reads and writes them; ok is false when there is
// no such section. A fact may continue on indented lines.
func GeminiFacts(text string) (facts []Fact, ok bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	at := strings.Index(text, GeminiHeader)
	if at < 0 {
		return nil, false
	}
	start := at + len(GeminiHeader)
	section := text[start:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	line := strings.Count(text[:start], "\n") + 1
	for i, l := range strings.Split(section, "\n") {
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, "- ") || t == "-" || strings.HasPrefix(t, "* "):
			if f := strings.TrimSpace(t[1:]); f != "" {
				facts = append(facts, Fact{Line: line + i, Text: f})
			}
		case t != "" && len(facts) > 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")):
			facts[len(facts)-1].Text += "\n" + t
		}
	}
	return facts, true
}

// nameOf is a short name for a memory that has none: its first line,
// shortened at a word.
func nameOf(text string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	var words []string
	for _, w := range strings.Fields(strings.NewReplacer("/", " ", "\\", " ").Replace(first)) {
		if !strings.Contains(w, ":") || !strings.Contains(first, "://") {
			words = append(words, w)
		}
	}
	name := strings.Trim(strings.Join(words, " "), " .:;,!-*#")
	if name == "" || memdir.ValidateName(memdir.Shorten(name, 60)) != nil {
		return "Imported memory"
	}
	return memdir.Shorten(name, 60)
}
