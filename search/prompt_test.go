package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	again := give(last)
	for _, h := range again {
		for _, f := range first {
			if h.File == f {
				t.Fatalf("%s given twice in one session", f)
			}
		}
	}
	if now, known := ix.sessionFiles(last); !known || len(now) != len(first)+len(again) {
		t.Fatalf("session list %v after %v and %d more given", now, first, len(again))
	}
	if _, err := os.Stat(filepath.Join(d.Path, filepath.FromSlash(sessionFile("s0")))); !os.IsNotExist(err) {
		t.Fatalf("the oldest session's list is still there (%v)", err)
	}
}

// TestForPromptLooksPastWhatItRefuses: memories the session already
// loaded rank above the one it may give; recall looks past them instead
// of giving nothing.
func TestForPromptLooksPastWhatItRefuses(t *testing.T) {
	d := benchDir(t, 0)
	var loaded []string
	for i := range promptCandidates + 2 {
		f := fmt.Sprintf("reference_quokka_%d.md", i)
		writeFile(t, filepath.Join(d.Path, f), fmt.Sprintf("---\nname: Quokka %d\ndescription: the zephyr quokka runbook\ntype: reference\n---\n\nZephyr quokka rollout.\n", i))
		loaded = append(loaded, f)
	}
	// Longer, so it ranks below every loaded one.
	writeFile(t, filepath.Join(d.Path, "reference_quokka_late.md"), "---\nname: Late quokka\ndescription: the zephyr quokka runbook, the long one\ntype: reference\n---\n\nZephyr quokka rollout, with many other words about vaults, routers, pagers and staging.\n")
	isLoaded := func(f string) bool { return slices.Contains(loaded, f) }
	_, hits, err := Open(d).ForPrompt(context.Background(), "how does the zephyr quokka rollout go?", PromptOptions{Session: "s", Loaded: isLoaded})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].File != "reference_quokka_late.md" {
		t.Fatalf("given %v, want reference_quokka_late.md alone", hits)
	}
}
