package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Per-prompt recall keeps the lists of the maxSessions newest sessions:
// a new session past them drops the oldest, and a session going on adds
// to its own list.
func TestForPromptKeepsTheNewestSessions(t *testing.T) {
	d := benchDir(t, 20)
	writeFile(t, filepath.Join(d.Path, "reference_zephyr_quokka.md"), rareTopic)
	ix := Open(d)
	give := func(session string) []Hit {
		t.Helper()
		_, hits, err := ix.ForPrompt(context.Background(), rarePrompt, PromptOptions{Session: session})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	for i := range maxSessions + 6 {
		if hits := give(fmt.Sprintf("s%d", i)); len(hits) == 0 {
			t.Fatalf("session %d was given nothing", i)
		}
	}
	dir := filepath.Join(d.Path, filepath.FromSlash(PromptStateDir))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != maxSessions {
		t.Fatalf("%d session lists; want the newest %d", len(ents), maxSessions)
	}
	last := fmt.Sprintf("s%d", maxSessions+5)
	if _, err := os.Stat(filepath.Join(d.Path, filepath.FromSlash(sessionFile(last)))); err != nil {
		t.Fatalf("the newest session's list: %v", err)
	}

	// The newest session goes on: what it was given is not given again,
	// and its list grows.
	first, _ := ix.sessionFiles(last)
	for _, h := range give(last) {
		for _, f := range first {
			if h.File == f {
				t.Fatalf("%s given twice in one session", f)
			}
		}
	}
	if now, known := ix.sessionFiles(last); !known || len(now) < len(first) {
		t.Fatalf("session list %v after %v", now, first)
	}
}
