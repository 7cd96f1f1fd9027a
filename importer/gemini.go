package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/untrusted"
)

// Gemini CLI keeps memory two ways:
//
//   - releases with the save_memory tool appended "- <fact>" under the
//     heading "## Gemini Added Memories" of the user's GEMINI.md
//     (~/.gemini/GEMINI.md); the section runs to the next "\n## ". The
//     section stays in the files of everyone who used them. PATH is that
//     file, or a directory holding it.
//   - 0.61.0 has no save_memory (prompts/snippets.js: "There is no
//     save_memory tool"): the model edits a private project memory folder,
//     ~/.gemini/tmp/<project>/memory/ (config/storage.js), whose MEMORY.md
//     index Gemini loads (utils/memoryDiscovery.js): brief facts written
//     straight into it as bullets, detail in sibling notes behind
//     "- [Title](note.md)" pointers. PATH is that folder, or its MEMORY.md.

// GeminiHeader is the heading Gemini CLI's save_memory writes under.
const GeminiHeader = "## Gemini Added Memories"

func readGemini(path string) ([]Memory, []Skip, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "GEMINI.md")); err != nil {
			return readGeminiFolder(filepath.Join(path, index.IndexName))
		}
		path = filepath.Join(path, "GEMINI.md")
	}
	if filepath.Base(path) == index.IndexName {
		return readGeminiFolder(path)
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

// readGeminiFolder reads Gemini CLI 0.61's private project memory: each
// fact written into MEMORY.md is a memory; each pointer entry brings in
// the note it points at (inside the folder), named by its title.
func readGeminiFolder(indexPath string) ([]Memory, []Skip, error) {
	dir := filepath.Dir(indexPath)
	data, err := untrusted.ReadFile(indexPath, dir, MaxFile)
	if err != nil {
		return nil, nil, &InputError{Msg: fmt.Sprintf("read %s: %v", indexPath, err), Err: err}
	}
	var mems []Memory
	var skips []Skip
	for _, l := range index.Parse(data).Lines {
		src := fmt.Sprintf("%s:%d", indexPath, l.No)
		if e := l.Entry; e != nil {
			note := filepath.Join(dir, filepath.FromSlash(e.File))
			body, err := untrusted.ReadFile(note, dir, MaxFile)
			if err != nil {
				skips = append(skips, Skip{Source: src, Reason: "the note it points at is " + unreadable(err)})
				continue
			}
			text := strings.TrimSpace(string(body))
			if e.Hook != "" && !strings.Contains(text, e.Hook) {
				text = e.Hook + "\n\n" + text
			}
			mems = append(mems, Memory{Source: note, Name: e.Title, Description: e.Hook, Text: text})
			continue
		}
		t := strings.TrimSpace(l.Raw)
		f, ok := strings.CutPrefix(t, "- ")
		if !ok {
			f, ok = strings.CutPrefix(t, "* ")
		}
		if f = strings.TrimSpace(f); ok && f != "" {
			mems = append(mems, Memory{Source: src, Name: nameOf(f), Text: f})
		}
	}
	return mems, skips, nil
}
