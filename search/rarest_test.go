package search

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// The planted memory holds the prompt's two rare words and its common
// ones; the corpus holds the common ones thousands of times.
const (
	rarePrompt  = "why does the zephyr quokka rollout of the vault router time out on the staging pager migration deploy?"
	rareTopic   = "---\nname: Zephyr quokka\ndescription: the zephyr quokka runbook\ntype: reference\n---\n\nThe zephyr quokka rollout: vault router staging pager migration deploy.\n"
	keptForTest = 5
)

func TestRarestDropsCommonWordsOfALargeIndex(t *testing.T) {
	d := benchDir(t, 2000)
	writeFile(t, filepath.Join(d.Path, "reference_zephyr_quokka.md"), rareTopic)
	ix := Open(d)
	if _, err := ix.Search(context.Background(), Query{Text: "deploy", NoRecall: true}); err != nil {
		t.Fatal(err)
	}
	cur, err := ix.bringUp(false, true)
	if err != nil {
		t.Fatal(err)
	}
	defer cur.close()
	v := newView(cur)
	pq, err := parseTyped(rarePrompt, false, testNow)
	if err != nil {
		t.Fatal(err)
	}
	before := wordCount(pq.root)
	root, dropped := rarest(v, pq.root, keptForTest)
	if got := wordCount(root); got != keptForTest || dropped != int(before)-keptForTest {
		t.Fatalf("kept %v words, dropped %d of %v; want %d kept", got, dropped, before, keptForTest)
	}
	var kept []string
	for _, k := range root.kids {
		kept = append(kept, k.text)
	}
	for _, w := range []string{"zephyr", "quokka"} {
		if !slices.Contains(kept, w) {
			t.Errorf("kept %v: the rare word %q was dropped", kept, w)
		}
	}

	// Recall finds the memory from the rare words it kept.
	_, hits, err := Open(d).ForPrompt(context.Background(), rarePrompt, PromptOptions{})
	if err != nil || len(hits) == 0 || hits[0].File != "reference_zephyr_quokka.md" {
		t.Fatalf("ForPrompt = %v, %v; want reference_zephyr_quokka.md first", hits, err)
	}
}

func TestRarestKeepsEveryWordOfASmallIndex(t *testing.T) {
	d := benchDir(t, 20)
	writeFile(t, filepath.Join(d.Path, "reference_zephyr_quokka.md"), rareTopic)
	ix := Open(d)
	if _, err := ix.Search(context.Background(), Query{Text: "deploy", NoRecall: true}); err != nil {
		t.Fatal(err)
	}
	cur, err := ix.bringUp(false, true)
	if err != nil {
		t.Fatal(err)
	}
	defer cur.close()
	pq, err := parseTyped(rarePrompt, false, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if root, dropped := rarest(newView(cur), pq.root, keptForTest); dropped != 0 || root != pq.root {
		t.Errorf("dropped %d words of a 20-memory index, want none", dropped)
	}
}
