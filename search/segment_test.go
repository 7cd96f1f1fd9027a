package search

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// liveDocs lists a view's live documents as "path#entry name", sorted,
// with the view's document count and average field lengths.
func liveDocs(v *view) ([]string, int, [numFields]float64) {
	var out []string
	v.each(func(_ int32, s *segment, i int) {
		d := s.doc(i)
		out = append(out, s.srcPath(int(d.src))+"#"+strconv.Itoa(int(d.entry))+" "+d.name)
	})
	slices.Sort(out)
	return out, v.live, v.avg
}

// TestDeltaMatchesRebuild checks the index read in place: a base with a
// delta over it (a topic edited, one removed, one added, a daily log
// grown by an entry) must show the same live documents, sources and
// average lengths as an index built from the same files from nothing;
// so must the base the delta is folded into once it grows past
// compactAt.
func TestDeltaMatchesRebuild(t *testing.T) {
	files := map[string]string{
		"logs/2026/11/2026-11-20.md": "# 2026-11-20\n\n- 09:00 [project] First entry about kafka\n- 10:00 [feedback] Second entry about tests\n",
	}
	for k, v := range corpus {
		files[k] = v
	}
	d := newDir(t, files)
	ix := Open(d)
	if _, err := ix.refresh(); err != nil {
		t.Fatal(err)
	}
	edit := func(name, content string) {
		t.Helper()
		p := filepath.Join(d.Path, filepath.FromSlash(name))
		if content == "" {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			return
		}
		writeFile(t, p, content)
	}
	edit("project_billing_owner.md", topicFile("project", "Billing service owner", "Marco owns billing now", "Marco Rossi took billing over from Priya; a much longer body than before, to move the averages."))
	edit("user_role.md", "")
	edit("project_new.md", topicFile("project", "New topic", "Added after the base", "Fresh words: okapi lemur."))
	edit("logs/2026/11/2026-11-20.md", files["logs/2026/11/2026-11-20.md"]+"- 11:00 [project] Third entry about okapi\n")

	check := func(stage string, wantDelta bool) {
		t.Helper()
		cur, err := ix.refresh()
		if err != nil {
			t.Fatal(err)
		}
		if (cur.delta != nil) != wantDelta {
			t.Fatalf("%s: delta present = %v, want %v", stage, cur.delta != nil, wantDelta)
		}
		fresh, err := Open(d).build()
		if err != nil {
			t.Fatal(err)
		}
		got, gotLive, gotAvg := liveDocs(newView(cur))
		want, wantLive, wantAvg := liveDocs(newView(fresh))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: live documents (-rebuilt +incremental):\n%s", stage, diff)
		}
		if gotLive != wantLive || gotAvg != wantAvg {
			t.Errorf("%s: live %d avg %v, rebuilt %d %v", stage, gotLive, gotAvg, wantLive, wantAvg)
		}
		k := knownOf(cur.base, cur.delta)
		var paths []string
		for x := range k.len() {
			paths = append(paths, k.path(x))
		}
		var wantPaths []string
		for i := range fresh.base.nsrc() {
			wantPaths = append(wantPaths, fresh.base.srcPath(i))
		}
		if diff := cmp.Diff(wantPaths, paths); diff != "" {
			t.Errorf("%s: known sources (-rebuilt +incremental):\n%s", stage, diff)
		}
	}
	check("delta", true)
	for i := range compactAt(len(files)) + 1 {
		edit("project_more_"+strconv.Itoa(i)+".md", topicFile("project", "More "+strconv.Itoa(i), "Filler", "Filler body."))
	}
	check("compacted", false)
}

// build indexes every file from nothing, in memory.
func (ix *Index) build() (*current, error) {
	sc := scanFiles(ix.dir.Path, nil, nil)
	b := newBuilder(1, 0)
	ix.addFiles(b, sc, sc.changed)
	s, err := decodeSegment(b.encode())
	return &current{base: s, scan: sc}, err
}

// TestIndexPathsStayInside checks that an index naming a source or a
// directory outside the memory directory is refused as damaged (and so
// rebuilt), so the freshness check never stats what such a path names.
func TestIndexPathsStayInside(t *testing.T) {
	for _, p := range []string{"../outside.md", "/etc/passwd", "logs/../../x.md", "", "..\x00", "a/../..\x00/b.md"} {
		b := newBuilder(1, 0)
		b.addFile(source{path: p, kind: srcTopic}, []byte(topicFile("project", "X", "Y", "Body.")))
		if _, err := decodeSegment(b.encode()); err == nil {
			t.Errorf("an index with source %q decoded; want it refused", p)
		}
	}
	b := newBuilder(1, 0)
	b.dirs = []stamp{{path: "../elsewhere"}}
	if _, err := decodeSegment(b.encode()); err == nil {
		t.Error("an index stamping directory ../elsewhere decoded; want it refused")
	}
	b = newBuilder(1, 0)
	b.addFile(source{path: "project_a..b.md", kind: srcTopic}, []byte(topicFile("project", "X", "Y", "Body.")))
	if _, err := decodeSegment(b.encode()); err != nil {
		t.Errorf("an index with source project_a..b.md: %v; want it read", err)
	}
}

// TestSourceRangesDoNotOverlap checks that an index whose source claims
// another source's document is refused: masking the first would hide the
// second.
func TestSourceRangesDoNotOverlap(t *testing.T) {
	b := newBuilder(1, 0)
	b.addFile(source{path: "project_a.md", kind: srcTopic}, []byte(topicFile("project", "A", "A", "Body a.")))
	b.addFile(source{path: "project_b.md", kind: srcTopic}, []byte(topicFile("project", "B", "B", "Body b.")))
	data := b.encode()
	s, err := decodeSegment(data)
	if err != nil {
		t.Fatal(err)
	}
	// The records are read in place: they start where their slice's
	// capacity says, and source 0's document count is at byte 44.
	at := cap(data) - cap(s.srcs.recs) + 44
	if got := binary.LittleEndian.Uint32(data[at:]); got != 1 {
		t.Fatalf("record layout: count %d at %d, want 1", got, at)
	}
	binary.LittleEndian.PutUint32(data[at:], 2)
	binary.LittleEndian.PutUint32(data[hdrBodyCRC:], crc32.Checksum(data[headerLen:len(data)-int(s.tail.meta.n+s.tail.post.n)], castagnoli()))
	if _, err := decodeSegment(data); err == nil {
		t.Error("an index whose first source claims both documents decoded; want it refused")
	}
}
