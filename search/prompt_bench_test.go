package search

import (
	"context"
	"testing"
)

// BenchmarkForPrompt is one per-prompt recall as the hook's fresh process
// makes it, at 10,000 topics: load the index, check it is current, search
// the prompt, keep what clears the floor, read what it gives. The index
// is written as it is in use, its stamps long settled (benchDir's files
// are all just changed, and a racy stamp is read again by every search).
// A fresh process also pays for every page it reads into memory, which a
// loop of calls does not: scripts/bench-recall times the whole process.
func BenchmarkForPrompt(b *testing.B) {
	d := benchDir(b, 10000)
	prompt := "why does the staging rollout of the vault router time out on the pager migration?"
	ix := Open(d)
	settledIndex(b, ix)
	b.ResetTimer()
	for range b.N {
		if _, _, err := Open(d).ForPrompt(context.Background(), prompt, PromptOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
