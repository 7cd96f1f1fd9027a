package search

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOneSearchMatchesHeldIndex checks that a one-shot search, which
// reads only its terms' postings from the index file, ranks exactly as
// an index held in memory does, over a base with a delta.
func TestOneSearchMatchesHeldIndex(t *testing.T) {
	d := newDir(t, corpus)
	files(t, Open(d), Query{Text: "database"}) // writes the base
	writeFile(t, filepath.Join(d.Path, "project_new.md"), topicFile("project", "New topic", "Added after the base", "Okapi billing database notes."))
	files(t, Open(d), Query{Text: "okapi"}) // writes a delta
	if _, err := os.Stat(filepath.Join(d.Path, filepath.FromSlash(StateDir), deltaFile)); err != nil {
		t.Fatalf("no delta was written: %v", err)
	}
	live := OpenLive(d)
	defer live.Close()
	for _, q := range []string{"database", "billing", "okapi OR kafka", `"real database"`, "api-latency", "engineer*", "müller", "-billing database"} {
		once := files(t, Open(d), Query{Text: q})
		hits, err := live.Search(context.Background(), Query{Text: q, NoRecall: true})
		if err != nil {
			t.Fatal(err)
		}
		held := []string{}
		for _, h := range hits {
			held = append(held, h.File)
		}
		if diff := cmp.Diff(held, once); diff != "" {
			t.Errorf("%q: one-shot hits differ from the held index's (-held +once):\n%s", q, diff)
		}
		if len(once) == 0 {
			t.Errorf("%q: no hits", q)
		}
	}
}

// TestDamagedPostingsRebuilt checks that postings damaged in the file
// (the part a one-shot search reads term by term, outside the body's
// checksum) are caught by their own checksums: the search still answers
// right, from an index built again, and the file on disk is replaced by
// one whose postings check. An index held in memory checks the whole
// region and rebuilds the same way.
func TestDamagedPostingsRebuilt(t *testing.T) {
	for _, held := range []bool{false, true} {
		name := map[bool]string{false: "one-shot", true: "held"}[held]
		t.Run(name, func(t *testing.T) {
			d := newDir(t, corpus)
			files(t, Open(d), Query{Text: "database"})
			base := filepath.Join(d.Path, filepath.FromSlash(StateDir), baseFile)
			data, err := os.ReadFile(base)
			if err != nil {
				t.Fatal(err)
			}
			n := int(binary.LittleEndian.Uint64(data[hdrPostLen:]))
			if n == 0 {
				t.Fatal("the index has no postings region")
			}
			for i := len(data) - n; i < len(data); i++ {
				data[i] ^= 0x5a
			}
			writeFile(t, base, string(data))
			if s := Open(d).load(baseFile); s == nil {
				t.Fatal("the damaged file's body no longer decodes: the test damages the wrong part")
			}

			var got []string
			if held {
				live := OpenLive(d)
				defer live.Close()
				hits, err := live.Search(context.Background(), Query{Text: "database", NoRecall: true})
				if err != nil {
					t.Fatal(err)
				}
				got = []string{}
				for _, h := range hits {
					got = append(got, h.File)
				}
			} else {
				got = files(t, Open(d), Query{Text: "database"})
			}
			if diff := cmp.Diff([]string{"feedback_testing_policy.md"}, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			now, err := os.ReadFile(base)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := decodeSegment(now); err != nil {
				t.Errorf("the damaged index was not replaced by a good one: %v", err)
			}
		})
	}
}
