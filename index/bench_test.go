package index

import (
	"fmt"
	"testing"
)

func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{200, 10000} {
		data := indexOf(testMetas(n, 60))
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Load(data, DefaultCaps)
			}
		})
	}
}

func BenchmarkParseUpsertRender(b *testing.B) {
	data := indexOf(testMetas(10000, 60))
	e := Entry{Title: "New topic", File: "feedback_new_topic.md", Hook: "a new hook"}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		ix := Parse(data)
		ix.Upsert(e)
		_ = ix.Bytes()
	}
}

func BenchmarkFit(b *testing.B) {
	metas := testMetas(10000, 60)
	for b.Loop() {
		Fit(nil, metas, DefaultCaps)
	}
}
