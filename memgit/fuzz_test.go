package memgit

import (
	"crypto/sha1"
	"encoding/binary"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

func encodeTree(entries []treeEntry) []byte {
	var buf []byte
	for _, e := range entries {
		buf = append(buf, []byte(strconv.FormatUint(uint64(e.mode), 8)+" "+e.name+"\x00")...)
		buf = append(buf, e.hash[:]...)
	}
	return buf
}

// FuzzParseTree: any input parses or fails cleanly, and a well-formed
// tree round-trips.
func FuzzParseTree(f *testing.F) {
	h := plumbing.ComputeHash(plumbing.BlobObject, []byte("x"))
	f.Add(encodeTree([]treeEntry{{name: "a.md", mode: filemode.Regular, hash: h}, {name: "logs", mode: filemode.Dir, hash: h}}))
	f.Add([]byte("100644 a\x00short"))
	f.Add([]byte("zz a\x00" + strings.Repeat("x", 20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseTree(data)
		if err != nil {
			return
		}
		again, err := parseTree(encodeTree(entries))
		if err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		if diff := cmp.Diff(entries, again, cmp.AllowUnexported(treeEntry{})); diff != "" {
			t.Errorf("round trip (-first +second):\n%s", diff)
		}
	})
}

// rawIndex builds a version 2 index of the named entries.
func rawIndex(names ...string) []byte {
	out := []byte("DIRC")
	out = binary.BigEndian.AppendUint32(out, 2)
	out = binary.BigEndian.AppendUint32(out, uint32(len(names)))
	for _, n := range names {
		e := make([]byte, (entryFixed+len(n)+8)&^7)
		binary.BigEndian.PutUint32(e[24:], uint32(filemode.Regular))
		binary.BigEndian.PutUint16(e[60:], uint16(len(n)))
		copy(e[entryFixed:], n)
		out = append(out, e...)
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...)
}

// FuzzParseIndex: any input parses or fails cleanly, and what parses
// renders back to an index that parses to the same entries.
func FuzzParseIndex(f *testing.F) {
	f.Add(rawIndex("MEMORY.md", "user_a.md"))
	f.Add(rawIndex())
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		version, entries, err := parseIndex(data)
		if err != nil {
			return
		}
		ix := &gitIndex{version: version, entries: entries}
		out, err := ix.bytes(nil)
		if err != nil {
			t.Fatal(err)
		}
		_, again, err := parseIndex(out)
		if err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		names := func(es []rawEntry) []string {
			var s []string
			for _, e := range es {
				s = append(s, e.name)
			}
			sort.Strings(s)
			return s
		}
		if diff := cmp.Diff(names(entries), names(again)); diff != "" {
			t.Errorf("entries changed (-first +second):\n%s", diff)
		}
	})
}

func TestCompareEntries(t *testing.T) {
	entries := []treeEntry{
		{name: "a", mode: filemode.Dir}, {name: "a.md", mode: filemode.Regular},
		{name: "a-b", mode: filemode.Regular}, {name: "a0", mode: filemode.Regular},
		{name: "ab", mode: filemode.Dir}, {name: "b", mode: filemode.Regular}, {name: "A", mode: filemode.Regular},
	}
	key := func(e treeEntry) string {
		if e.mode == filemode.Dir {
			return e.name + "/"
		}
		return e.name
	}
	want := slices.Clone(entries)
	sort.Slice(want, func(i, j int) bool { return key(want[i]) < key(want[j]) })
	got := slices.Clone(entries)
	slices.SortFunc(got, compareEntries)
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(treeEntry{})); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}
