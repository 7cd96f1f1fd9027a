package search

import (
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/memdir/memdir/memdir"
)

// FuzzParseQuery checks the query parser against rules stated
// independently of it: it never panics; an error is one line of input
// error; an odd number of quotes, or no letter or digit at all, is always
// an error; plain lowercase words (no operators) always parse.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"deploy", `"a b" c*`, "a OR (b NOT c)", "NOT", "((", `"`, `When did she first watch "Eternal Sunshine?`, `a "b c" "d`, "a) OR (b", "x OR", "- y -", "*", "-x y", "x AND", "Müller api-latency MAX_RETRIES", "a\x00b", "日本 語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := parseQuery(s)
		if err != nil {
			if !memdir.IsInput(err) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("parseQuery(%q): %v is not one line of input error", s, err)
			}
			return
		}
		if strings.Count(s, `"`)%2 == 1 {
			// The quote left open is punctuation: the query reads as
			// it does with a space in its place.
			i := strings.LastIndexByte(s, '"')
			alt := s[:i] + " " + s[i+1:]
			q2, err := parseQuery(alt)
			if err != nil || q2.root.String() != q.root.String() || strings.Join(q2.words, " ") != strings.Join(q.words, " ") {
				t.Fatalf("parseQuery(%q) = %v %q, but without its open quote %v %q (%v)", s, q.root, q.words, q2.root, q2.words, err)
			}
		}
		if !strings.ContainsFunc(s, isWordRune) {
			t.Fatalf("parseQuery(%q) accepted a query without a word", s)
		}
		if q.root == nil || len(q.words) == 0 || len(q.words) > MaxQueryWords {
			t.Fatalf("parseQuery(%q) = %+v", s, q)
		}
		checkTree(t, s, q.root)
	})
}

// checkTree checks that every node has what its kind needs.
func checkTree(t *testing.T, s string, n *node) {
	switch n.kind {
	case nTerm, nPrefix:
		if n.text == "" {
			t.Fatalf("parseQuery(%q): empty word in %v", s, n)
		}
	case nPhrase:
		if len(n.seq) < 2 {
			t.Fatalf("parseQuery(%q): phrase of %d words", s, len(n.seq))
		}
	default:
		if len(n.kids) == 0 {
			t.Fatalf("parseQuery(%q): empty group", s)
		}
		for _, k := range n.kids {
			checkTree(t, s, k)
		}
	}
}

func TestPlainWordsParse(t *testing.T) {
	for _, s := range []string{"deploy staging", "a b c d", "who owns billing"} {
		if _, err := parseQuery(s); err != nil {
			t.Errorf("parseQuery(%q): %v", s, err)
		}
	}
}

// FuzzDecodeSegment feeds the index reader damaged files whose checksum
// is right (so the decoder itself is exercised): it must never panic,
// and what it accepts must be safe to walk, through every accessor.
func FuzzDecodeSegment(f *testing.F) {
	b := newBuilder(1, 0)
	b.addFile(source{path: "project_x.md", kind: srcTopic}, []byte(topicFile("project", "X", "Y", "Body of x with api-latency.")))
	seed := func(data []byte) {
		f.Add(data[headerLen:], uint32(binary.LittleEndian.Uint64(data[hdrPostLen:])), binary.LittleEndian.Uint32(data[hdrMetaLen:]))
	}
	seed(b.encode())
	b.addFile(source{path: "reference_y.md", kind: srcTopic}, []byte(topicFile("reference", "Y", "Z", "Tagged.", "tags: [a, b]", "expires: 2027-01-01")))
	b.addFile(source{path: "logs/2026/11/2026-11-20.md", kind: srcLog}, []byte("# 2026-11-20\n\n- 09:00 [project] One\n- 10:00 [user] Two\n"))
	seed(b.encode())
	f.Add([]byte{}, uint32(0), uint32(0))
	f.Fuzz(func(t *testing.T, body []byte, npost, nmeta uint32) {
		np := min(int(npost), len(body))
		nm := min(int(nmeta), len(body)-np)
		split := len(body) - np - nm
		data := make([]byte, headerLen, headerLen+len(body))
		copy(data, magic)
		binary.LittleEndian.PutUint32(data[hdrVersion:], formatVersion)
		binary.LittleEndian.PutUint32(data[hdrBodyCRC:], crc32.Checksum(body[:split], castagnoli()))
		binary.LittleEndian.PutUint64(data[hdrPostLen:], uint64(np))
		binary.LittleEndian.PutUint32(data[hdrPostCRC:], crc32.Checksum(body[split+nm:], castagnoli()))
		binary.LittleEndian.PutUint32(data[hdrMetaLen:], uint32(nm))
		binary.LittleEndian.PutUint32(data[hdrMetaCRC:], crc32.Checksum(body[split:split+nm], castagnoli()))
		data = append(data, body...)
		s, err := decodeSegment(data)
		if err != nil {
			return
		}
		var pos [numFields][]uint32
		for i := 0; i < s.dict.n; i++ {
			_, p := s.term(i)
			for n := 0; p.next() && n < 10000; n++ {
				p.allPositions(&pos)
			}
		}
		for i := 0; i < s.surfaces.n; i++ {
			s.surfaces.record(i)
		}
		if m, err := s.metas(); err == nil && len(m) != s.ndoc() {
			t.Fatalf("metas: %d for %d documents", len(m), s.ndoc())
		}
		expand(s, "a")
		// Every accessor of every record, and a view and a scan list
		// with the segment as both base and delta.
		for i := range s.nsrc() {
			src := s.source(i)
			if s.findSource(src.path) != i {
				t.Fatalf("findSource(%q) != %d", src.path, i)
			}
			s.srcDocs(i)
			s.srcKind(i)
			s.srcRacy(i)
			s.sameStamp(i, &src)
		}
		for i := range s.ndoc() {
			s.doc(i)
			s.name(i)
			s.expires(i)
			s.lens(i)
			s.docSrc(i)
		}
		v := newView(&current{base: s, delta: s})
		v.each(func(int32, *segment, int) {})
		k := knownOf(s, s)
		for x := range k.len() {
			k.path(x)
		}
	})
}
