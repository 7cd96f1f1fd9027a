package memsync

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// indexOf is an index of n entries numbered from first.
func indexOf(first, n int) []byte {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "- [Fact %d](reference_fact_%06d.md) — reference number %d\n", i, i, i)
	}
	return []byte(b.String())
}

// BenchmarkMergeIndex merges a remote MEMORY.md that added n entries
// (the topics of none of them here: dangling) into a local one of ten.
func BenchmarkMergeIndex(b *testing.B) {
	for _, n := range []int{32000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			base := indexOf(0, 10)
			local := append(indexOf(0, 10), indexOf(1_000_000, 1)...)
			remote := append(indexOf(0, 10), indexOf(10, n)...)
			b.ResetTimer()
			for b.Loop() {
				if len(mergeIndex(base, local, remote)) == 0 {
					b.Fatal("empty merge")
				}
			}
		})
	}
}

// BenchmarkMergeDriverIndex is the merge driver on a 50,000-entry
// MEMORY.md both sides changed: ours added one entry, theirs changed
// every tenth hook.
func BenchmarkMergeDriverIndex(b *testing.B) {
	base := indexOf(0, 50000)
	ours := append(indexOf(0, 50000), indexOf(1_000_000, 1)...)
	theirs := []byte(strings.ReplaceAll(string(base), "0\n", "0, changed\n"))
	b.ResetTimer()
	for b.Loop() {
		res, err := MergeFile(context.Background(), "MEMORY.md", base, ours, theirs)
		if err != nil || !res.Clean {
			b.Fatal(err)
		}
	}
}
