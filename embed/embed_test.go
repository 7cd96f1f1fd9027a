package embed

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/fakeembed"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

var testNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func topic(name, desc, body string, extra ...string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\ntype: project\ncreated: 2026-11-01T10:00:00Z\nmodified: 2026-11-01T10:00:00Z\n%s---\n\n%s\n",
		name, desc, strings.Join(extra, ""), body)
}

func testDir(t *testing.T) *memdir.Dir {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"project_billing_owner.md": topic("Billing service owner", "Priya Natarajan owns the billing service", "Escalate payment failures to Priya."),
		"project_kafka.md":         topic("Kafka topic naming", "How topics are named", "Topics use team.domain.event."),
		"project_offline.md":       topic("Offline mode", "The app caches orders", "Orders sync when the connection returns."),
		"project_health.md":        topic("Health", "Private", "Payment of the clinic bill.", "private: true\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := memdir.Open(dir, memdir.Live)
	d = d.With(memdir.WithClock(func() time.Time { return testNow }))
	return d
}

func files(t *testing.T, ix *search.Index, text string) []string {
	t.Helper()
	hits, err := ix.Search(context.Background(), search.Query{Text: text, NoRecall: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.File)
	}
	return out
}

// TestFusionFindsParaphrase: a question words alone cannot answer is
// answered through the fake server, by either protocol, with the key.
func TestFusionFindsParaphrase(t *testing.T) {
	for _, path := range []string{"", "/v1", "/api/embed"} {
		t.Run("url"+path, func(t *testing.T) {
			srv := fakeembed.Start()
			defer srv.Close()
			srv.Key = "k-123"
			d := testDir(t)
			q := "who is responsible for invoices"
			if got := files(t, search.Open(d), q); len(got) != 0 {
				t.Fatalf("words alone found %v: pick a question they miss", got)
			}
			var warn bytes.Buffer
			r := New(d, Config{URL: srv.URL + path, Model: "m1", APIKey: "k-123", Timeout: 5 * time.Second}, &warn)
			got := files(t, search.Open(d).WithSemantic(r), q)
			if len(got) == 0 || got[0] != "project_billing_owner.md" || warn.Len() > 0 {
				t.Errorf("fused: %v (warnings %q), want project_billing_owner.md first", got, warn.String())
			}
		})
	}
}

// TestIncremental: vectors are kept with their file's stamp and their
// text's hash; a topic offered with the stamp kept is not read at all, one
// with a new stamp is read and sent again only when its text changed, all
// of them when the model changes, and a topic not offered (private, gone)
// is dropped. A store without stamps (MDEMBED1) is read, not embedded
// anew.
func TestIncremental(t *testing.T) {
	srv := fakeembed.Start()
	defer srv.Close()
	d := testDir(t)
	stamps := map[string]search.Stamp{ // as the index would offer them: private left out
		"project_billing_owner.md": {Size: 1, Mtime: 1},
		"project_kafka.md":         {Size: 2, Mtime: 2},
		"project_offline.md":       {Size: 3, Mtime: 3},
	}
	var warn bytes.Buffer
	step := func(what, model string, want int64) {
		t.Helper()
		var topics []search.Stamped
		for f, st := range stamps {
			topics = append(topics, search.Stamped{File: f, Stamp: st})
		}
		before := srv.Texts.Load()
		r := New(d, Config{URL: srv.URL, Model: model, Timeout: 5 * time.Second}, &warn)
		if got := r.Nearest(context.Background(), "billing", 10, topics); len(got) != len(topics) {
			t.Fatalf("%s: Nearest: %v, want the %d topics offered (warnings %q)", what, got, len(topics), warn.String())
		}
		if got := srv.Texts.Load() - before; got != want {
			t.Errorf("%s: %d texts sent, want %d", what, got, want)
		}
	}
	step("first search", "m1", 1+3)
	step("again", "m1", 1)
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(d.Path, "project_kafka.md"), []byte(topic("Kafka topic naming", "How topics are named", body)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Changed.")
	step("changed, same stamp offered: not read", "m1", 1)
	stamps["project_kafka.md"] = search.Stamp{Size: 2, Mtime: 20}
	step("one topic with a new stamp", "m1", 1+1)
	for f := range stamps {
		stamps[f] = search.Stamp{}
	}
	step("every stamp unknown: read, none changed", "m1", 1)
	step("unknown again: read again, none changed", "m1", 1)
	stamps["project_kafka.md"] = search.Stamp{Size: 2, Mtime: 21}
	delete(stamps, "project_offline.md")
	step("one left out", "m1", 1)
	stamps["project_offline.md"] = search.Stamp{Size: 3, Mtime: 3}
	step("back: embedded again", "m1", 1+1)
	st := load(d.Path, "m1 "+srv.URL)
	v1 := encodeV1(st)
	if err := os.WriteFile(filepath.Join(d.Path, StateDir, storeFile), v1, 0o644); err != nil {
		t.Fatal(err)
	}
	step("a store without stamps", "m1", 1)
	step("another model", "m2", 1+3)
	if err := os.WriteFile(filepath.Join(d.Path, StateDir, storeFile), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	step("damaged store", "m2", 1+3)
}

// TestDeadServerFallsBack: a server that refuses connections, or accepts
// and never answers, gives words-alone results within the timeout and
// one warning line.
func TestDeadServerFallsBack(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	hang := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	}))
	defer slow.Close()
	defer close(hang)
	for _, url := range []string{refused, slow.URL} {
		d := testDir(t)
		var warn bytes.Buffer
		timeout := 300 * time.Millisecond
		ix := search.Open(d).WithSemantic(New(d, Config{URL: url, Model: "m", Timeout: timeout}, &warn))
		start := time.Now()
		got := files(t, ix, "kafka")
		if elapsed := time.Since(start); elapsed > timeout+5*time.Second {
			t.Errorf("%s: search took %v with a %v timeout", url, elapsed, timeout)
		}
		if len(got) != 1 || got[0] != "project_kafka.md" {
			t.Errorf("%s: %v, want the words-alone result", url, got)
		}
		if lines := strings.Count(warn.String(), "\n"); lines != 1 || !strings.Contains(warn.String(), "results by words alone") {
			t.Errorf("%s: warnings %q, want one line", url, warn.String())
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, reply := range []string{`{"data":[{"index":1,"embedding":[1]}]}`, `{"data":[{"index":0,"embedding":[]}]}`, `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]}`, `nonsense`} {
		if _, err := decode([]byte(reply), false); err == nil {
			t.Errorf("decode(%s): no error", reply)
		}
	}
}

func FuzzDecodeStore(f *testing.F) {
	s := &store{key: "m u", dims: 2, entries: map[string]entry{"a.md": {vec: []float32{1, 2}}}}
	f.Add(s.encode())
	f.Add([]byte(magic))
	f.Add(encodeV1(s))
	s.entries["a.md"] = entry{stamp: search.Stamp{Size: 1, Mtime: 2, Ctime: 3, Ino: 4}, vec: []float32{1, 2}}
	f.Add(s.encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeStore(data)
		if err != nil {
			return
		}
		for p, e := range got.entries {
			if len(e.vec) != got.dims {
				t.Fatalf("%s: %d dims, want %d", p, len(e.vec), got.dims)
			}
		}
	})
}

// encodeV1 writes s as memdir wrote vectors before stamps (MDEMBED1).
func encodeV1(s *store) []byte {
	b := []byte(magicV1)
	b = appendStr(b, s.key)
	b = binary.AppendUvarint(b, uint64(s.dims))
	b = binary.AppendUvarint(b, uint64(len(s.entries)))
	for path, e := range s.entries {
		b = appendStr(b, path)
		b = append(b, e.hash[:]...)
		for _, f := range e.vec {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// TestDotOfUnitsIsCosine: vectors are kept at unit length, so that a
// search scores by a dot product; that must be the cosine of the vectors
// the server gave, and stay within [-1, 1].
func TestDotOfUnitsIsCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := 1 + rng.IntN(40)
		a, b := make([]float32, n), make([]float32, n)
		var ab, aa, bb float64
		for i := range n {
			a[i], b[i] = float32(rng.NormFloat64()*10), float32(rng.NormFloat64())
			ab += float64(a[i]) * float64(b[i])
			aa += float64(a[i]) * float64(a[i])
			bb += float64(b[i]) * float64(b[i])
		}
		want := ab / math.Sqrt(aa*bb)
		normalize(a)
		normalize(b)
		if got := dot(a, b); math.Abs(got-want) > 1e-5 || got > 1 || got < -1 {
			t.Fatalf("dot of units %v, cosine %v", got, want)
		}
	}
	zero := make([]float32, 3)
	normalize(zero)
	if got := dot(zero, []float32{1, 0, 0}); got != 0 {
		t.Errorf("dot with a zero vector = %v, want 0", got)
	}
}

// TestRankerKeepsItsVectors: a long-lived ranker (the MCP server's) reads
// the vectors file once while nothing changes it, reads it again when
// another process wrote it (and so embeds nothing that process already
// did), and never trusts a stamp taken too soon after a write.
func TestRankerKeepsItsVectors(t *testing.T) {
	srv := fakeembed.Start()
	defer srv.Close()
	d := testDir(t)
	topics := twoTopics()
	cfg := Config{URL: srv.URL, Model: "m", Timeout: 5 * time.Second}
	var warn bytes.Buffer
	later := func() time.Time { return time.Now().Add(time.Hour) } // every stamp old enough
	r := New(d, cfg, &warn)
	r.now = later
	near := func(r *Ranker, topics []search.Stamped, wantLoads int, wantSent int64) {
		t.Helper()
		before := srv.Texts.Load()
		if got := r.Nearest(context.Background(), "billing", 10, topics); len(got) != len(topics) {
			t.Fatalf("Nearest: %v, want %d topics (warnings %q)", got, len(topics), warn.String())
		}
		if r.loads != wantLoads {
			t.Errorf("%d reads of the vectors file, want %d", r.loads, wantLoads)
		}
		if sent := srv.Texts.Load() - before; sent != wantSent {
			t.Errorf("%d texts sent, want %d", sent, wantSent)
		}
	}
	near(r, topics, 1, 1+2) // no file yet: embeds both, writes the file
	near(r, topics, 1, 1)   // nothing changed: not read again
	near(r, topics, 1, 1)
	// Another process (a recall hook) embeds a third topic and writes
	// the file: this ranker reads it again and sends nothing new.
	more := append(slices.Clone(topics), search.Stamped{File: "project_offline.md", Stamp: search.Stamp{Size: 3, Mtime: 3}})
	other := New(d, cfg, &warn)
	other.now = later
	near(other, more, 1, 1+1)
	near(r, more, 2, 1)
	// A stamp taken just after a write is not trusted.
	fresh := New(d, cfg, &warn)
	near(fresh, more, 1, 1)
	near(fresh, more, 2, 1)
}

// TestDecodeBoundsItsAllocation: a vectors file (a teammate may commit
// one into team memory) whose count claims an entry for every few bytes
// is refused without allocating more than a small multiple of its size.
func TestDecodeBoundsItsAllocation(t *testing.T) {
	for _, m := range []string{magic, magicV1} {
		b := []byte(m)
		b = appendStr(b, "m u")
		b = binary.AppendUvarint(b, 1)         // one dimension
		b = binary.AppendUvarint(b, (4<<20)/4) // an entry per 4 bytes of a 4 MiB file
		b = append(b, make([]byte, 4<<20)...)
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := decodeStore(b); err == nil {
			t.Fatalf("%s: a count past what the file holds was accepted", m)
		}
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(b)) {
			t.Errorf("%s: decoding a %d-byte file allocated %d bytes", m, len(b), got)
		}
	}
}

// TestTopicMadePrivateIsDropped: a topic offered with a new stamp whose
// file turned private (or is gone) loses its vector at once.
func TestTopicMadePrivateIsDropped(t *testing.T) {
	srv := fakeembed.Start()
	defer srv.Close()
	d := testDir(t)
	topics := twoTopics()
	var warn bytes.Buffer
	r := New(d, Config{URL: srv.URL, Model: "m", Timeout: 5 * time.Second}, &warn)
	if got := r.Nearest(context.Background(), "billing", 10, topics); len(got) != 2 {
		t.Fatalf("Nearest: %v (warnings %q)", got, warn.String())
	}
	if err := os.WriteFile(filepath.Join(d.Path, "project_kafka.md"), []byte(topic("Kafka topic naming", "How topics are named", "Secret now.", "private: true\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	topics[1].Stamp = search.Stamp{Size: 2, Mtime: 3}
	got := r.Nearest(context.Background(), "billing", 10, topics)
	if len(got) != 1 || got[0].File != "project_billing_owner.md" {
		t.Errorf("Nearest after kafka turned private: %v, want billing alone", got)
	}
	if _, ok := load(d.Path, "m "+srv.URL).entries["project_kafka.md"]; ok {
		t.Error("the private topic's vector is still kept")
	}
	// Both kept again; then billing is no longer offered while kafka,
	// offered with a new stamp, is gone: both vectors go.
	topics = twoTopics()
	if err := os.WriteFile(filepath.Join(d.Path, "project_kafka.md"), []byte(topic("Kafka topic naming", "How topics are named", "Public again.")), 0o644); err != nil {
		t.Fatal(err)
	}
	topics[1].Stamp = search.Stamp{Size: 2, Mtime: 5}
	if got := r.Nearest(context.Background(), "billing", 10, topics); len(got) != 2 {
		t.Fatalf("Nearest: %v, want both", got)
	}
	if err := os.Remove(filepath.Join(d.Path, "project_kafka.md")); err != nil {
		t.Fatal(err)
	}
	r.Nearest(context.Background(), "billing", 10, []search.Stamped{{File: "project_kafka.md", Stamp: search.Stamp{Size: 2, Mtime: 6}}})
	if got := load(d.Path, "m "+srv.URL).entries; len(got) != 0 {
		t.Errorf("vectors kept for topics not offered or gone: %v", slices.Collect(maps.Keys(got)))
	}
}

// twoTopics offers testDir's two topics that are not private with stamps
// of their own.
func twoTopics() []search.Stamped {
	return []search.Stamped{
		{File: "project_billing_owner.md", Stamp: search.Stamp{Size: 1, Mtime: 1}},
		{File: "project_kafka.md", Stamp: search.Stamp{Size: 2, Mtime: 2}},
	}
}
