package importer

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// Each parser: no panic on any input, and an independent property holds.

func FuzzGeminiFacts(f *testing.F) {
	f.Add("## Gemini Added Memories\n- I prefer tabs\n- The dashboard is at https://x\n\n## Other\n- no\n")
	f.Add("# x\r\n## Gemini Added Memories\r\n-\r\n- a\r\n  continued\r\n")
	f.Add("## Gemini Added Memories")
	f.Fuzz(func(t *testing.T, s string) {
		facts, ok := GeminiFacts(s)
		if ok != strings.Contains(s, GeminiHeader) {
			t.Fatalf("ok = %v for %q", ok, s)
		}
		for _, fa := range facts {
			if strings.TrimSpace(fa.Text) == "" || fa.Line < 1 {
				t.Fatalf("empty fact or bad line: %+v", fa)
			}
		}
	})
}

func FuzzParseGraph(f *testing.F) {
	f.Add([]byte(`{"type":"entity","name":"John_Smith","entityType":"person","observations":["Speaks Spanish"]}` + "\n" +
		`{"type":"relation","from":"John_Smith","to":"Anthropic","relationType":"works_at"}` + "\n"))
	f.Add([]byte("\n\n{}\n"))
	f.Add([]byte("{not json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ParseGraph(data)
		if err != nil {
			return
		}
		// Every line parsed is a JSON object that re-encodes.
		for _, l := range lines {
			if _, err := json.Marshal(l); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func FuzzParseNote(f *testing.F) {
	f.Add([]byte("---\ntitle: Deploy\ntype: note\npermalink: deploy\ntags: [a, b]\n---\n\n# Deploy\n\n- [process] x #y\n"))
	f.Add([]byte("---\ntitle: &a [*a]\n---\n"))
	f.Add([]byte("no frontmatter"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, text, err := ParseNote(data)
		if err != nil {
			return
		}
		for _, tg := range m.tags() {
			if tg == "" || strings.ContainsAny(tg, ",[]") {
				t.Fatalf("tag %q", tg)
			}
		}
		if utf8.ValidString(string(data)) && !utf8.ValidString(text) {
			t.Fatalf("body of valid UTF-8 is not: %q", text)
		}
	})
}

func FuzzParseMem0(f *testing.F) {
	f.Add([]byte(`{"results":[{"id":"1","memory":"Likes tea","categories":["food"]}]}`))
	f.Add([]byte(`{"memories":[{"id":"m","content":"x","state":"active","category_ids":["c"]}],"categories":[{"id":"c","name":"n"}]}`))
	f.Add([]byte(`[{"memory":"a"}]`))
	f.Add([]byte("{\"content\":\"a\"}\n{\"content\":\"b\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ParseMem0(data)
		if err != nil {
			return
		}
		for _, r := range rs {
			for _, tg := range r.tags() {
				if tg == "" || strings.ContainsAny(tg, ",[]") {
					t.Fatalf("tag %q", tg)
				}
			}
		}
	})
}

func FuzzParseObservations(f *testing.F) {
	f.Add([]byte(`[{"id":1,"project":"app","type":"decision","title":"Auth","facts":"[\"a\"]","narrative":"n","created_at_epoch":1}]`))
	f.Add([]byte(`[{"id":2,"facts":"not json"}]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		obs, err := ParseObservations(data)
		if err != nil {
			return
		}
		for _, o := range obs {
			if m, ok := o.memory("db"); ok && (strings.TrimSpace(m.Text) == "" || strings.TrimSpace(m.Name) == "") {
				t.Fatalf("memory without text or name: %+v", m)
			}
		}
	})
}

func FuzzDetectFile(f *testing.F) {
	f.Add("memory.jsonl", []byte(`{"type":"entity","name":"a","entityType":"b","observations":[]}`))
	f.Add("GEMINI.md", []byte("## Gemini Added Memories\n- a\n"))
	f.Add("x.md", []byte("---\ntitle: a\npermalink: a\n---\n"))
	f.Add("db", []byte("SQLite format 3\x00rest"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		k := detectFile(name, data)
		if k != "" {
			if _, err := ParseKind(string(k)); err != nil {
				t.Fatalf("detected an unknown kind %q", k)
			}
		}
	})
}
