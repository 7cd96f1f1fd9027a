package search

import (
	"context"
	"testing"
)

// BenchmarkForPrompt is one per-prompt recall as the hook's fresh process
// makes it, at 10,000 topics: load the index, check it is current, search
// the prompt, keep what clears the floor.
func BenchmarkForPrompt(b *testing.B) {
	d := benchDir(b, 10000)
	prompt := "why does the staging rollout of the vault router time out on the pager migration?"
	if _, err := Open(d).Search(context.Background(), Query{Text: "deploy", NoRecall: true}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, _, err := Open(d).ForPrompt(context.Background(), prompt, PromptOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
