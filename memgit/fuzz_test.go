package memgit

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/proc"
)

// specChanges reads a fuzz spec of changes: "-name" removes a name,
// "name" sets a file, "name/" a directory.
func specChanges(spec string) []treeChange {
	var out []treeChange
	seen := map[string]bool{}
	for _, f := range strings.Split(spec, ",") {
		rm := strings.HasPrefix(f, "-")
		name, dir := strings.CutSuffix(strings.TrimPrefix(f, "-"), "/")
		if name == "" || strings.ContainsAny(name, "\x00/") || seen[name] {
			continue
		}
		seen[name] = true
		c := treeChange{name: []byte(name)}
		if !rm {
			c.mode, c.hash = filemode.Regular, plumbing.ComputeHash(plumbing.BlobObject, []byte("new "+f))
			if dir {
				c.mode = filemode.Dir
			}
		}
		out = append(out, c)
	}
	return out
}

// FuzzSpliceTree: splicing changes into a tree gives the bytes the old
// parse, edit, sort and serialize path gave.
func FuzzSpliceTree(f *testing.F) {
	f.Add("a.md,a/,a-b,b", "a.md,-a,c/")
	f.Add("a,a.md,a0", "a/,-a.md")
	f.Add("", "x,y/")
	f.Add("user_a.md,MEMORY.md,logs/", "user_b.md,MEMORY.md,-logs")
	f.Fuzz(func(t *testing.T, base, edits string) {
		entries := specEntries(base)
		changes := specChanges(edits)
		parts, err := spliceTree(refTreeBytes(entries), changes)
		if err != nil {
			t.Fatalf("spliceTree: %v", err)
		}
		got := bytes.Join(parts, nil)
		want := refTreeBytes(refApply(entries, changes))
		if !bytes.Equal(got, want) {
			t.Errorf("spliceTree:\n got %q\nwant %q", got, want)
		}
	})
}

// FuzzTreeRecords: any tree content scans or fails cleanly; it scans
// exactly when the old parser reads it and its names are in git's order,
// and a splice of no changes copies it unchanged.
func FuzzTreeRecords(f *testing.F) {
	h := plumbing.ComputeHash(plumbing.BlobObject, []byte("x"))
	f.Add(refTreeBytes([]refEntry{{name: "a.md", mode: filemode.Regular, hash: h}, {name: "logs", mode: filemode.Dir, hash: h}}))
	f.Add([]byte("100644 a\x00short"))
	f.Add([]byte("zz a\x00" + strings.Repeat("x", 20)))
	f.Add([]byte("100644 b\x00" + strings.Repeat("x", 20) + "100644 a\x00" + strings.Repeat("x", 20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		parts, err := spliceTree(data, nil)
		got := bytes.Join(parts, nil)
		entries, refErr := refParseTree(data)
		sorted := refErr == nil && slices.IsSortedFunc(entries, func(a, b refEntry) int {
			return strings.Compare(refKey(a), refKey(b))
		}) && !hasDuplicateKeys(entries)
		if (err == nil) != sorted {
			t.Fatalf("spliceTree error %v, old parser error %v, sorted %v", err, refErr, sorted)
		}
		if err == nil && (!bytes.Equal(got, data) || !sameBytes(parts, data)) {
			t.Errorf("no changes: got %q, want %q", got, data)
		}
	})
}

func hasDuplicateKeys(entries []refEntry) bool {
	for i := 1; i < len(entries); i++ {
		if refKey(entries[i-1]) == refKey(entries[i]) {
			return true
		}
	}
	return false
}

// rawIndex builds a version 2 index of the named entries.
func rawIndex(names ...string) []byte {
	out := []byte("DIRC")
	out = binary.BigEndian.AppendUint32(out, 2)
	out = binary.BigEndian.AppendUint32(out, uint32(len(names)))
	for _, n := range names {
		e := make([]byte, entrySize(n))
		binary.BigEndian.PutUint32(e[24:], uint32(filemode.Regular))
		binary.BigEndian.PutUint16(e[60:], uint16(len(n)))
		copy(e[entryFixed:], n)
		out = append(out, e...)
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...)
}

// indexBytes renders what ix.write writes.
func indexBytes(t *testing.T, ix *gitIndex, files map[string]staged) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ix.write(&buf, files); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzSpliceIndex: splicing committed paths into an index gives the
// bytes the old parse, edit, sort and serialize path gave.
func FuzzSpliceIndex(f *testing.F) {
	f.Add("MEMORY.md,user_a.md,logs/x.md", "user_b.md,MEMORY.md,-user_a.md")
	f.Add("", "a,-b")
	f.Add("a,a/b,a.b,ab", "a.a,-a/b,b")
	f.Fuzz(func(t *testing.T, base, edits string) {
		var names []string
		for _, n := range strings.Split(base, ",") {
			if n != "" && len(n) < 0xfff && !strings.Contains(n, "\x00") && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		files := map[string]staged{}
		for i, e := range strings.Split(edits, ",") {
			name, rm := strings.CutPrefix(e, "-")
			if name == "" || len(name) >= 0xfff || strings.Contains(name, "\x00") {
				continue
			}
			files[name] = staged{}
			if !rm {
				files[name] = staged{hash: plumbing.ComputeHash(plumbing.BlobObject, []byte(e)), mode: filemode.Regular, info: fakeInfo{name: name, size: int64(i)}}
			}
		}
		data := rawIndex(names...)
		want := slices.Sorted(func(yield func(string) bool) {
			for name := range files {
				if !yield(name) {
					return
				}
			}
		})
		ix, err := parseIndex(data, want, indexStamp{})
		if err != nil {
			t.Fatalf("parseIndex: %v", err)
		}
		got := indexBytes(t, ix, files)
		version, entries, err := refParseIndex(data)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(refIndexBytes(version, entries, files), got); diff != "" {
			t.Errorf("index (-old path +splice):\n%s", diff)
		}
	})
}

// FuzzParseIndex: any index body (its checksum is added) parses or
// fails cleanly, and what parses renders back byte for byte, less its
// extensions.
func FuzzParseIndex(f *testing.F) {
	body := func(data []byte) []byte { return data[:len(data)-sha1.Size] }
	f.Add(body(rawIndex("MEMORY.md", "user_a.md")))
	f.Add(body(rawIndex()))
	f.Add(body(rawIndex("b", "a")))
	f.Add(append(body(rawIndex("a")), "TREE\x00\x00\x00\x00link\x00\x00\x00\x00"...))
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, body []byte) {
		sum := sha1.Sum(body)
		data := append(slices.Clone(body), sum[:]...)
		var c statCache
		c.fromRaw(data, "")
		if n := binary.BigEndian.Uint32(data[8:12]); len(data) >= 12 && len(c.entries) > int(n) {
			t.Fatalf("stat cache has %d entries of an index of %d", len(c.entries), n)
		}
		ix, err := parseIndex(data, []string{"MEMORY.md"}, indexStamp{})
		if err != nil {
			return
		}
		out := indexBytes(t, ix, nil)
		want := slices.Clone(data[:ix.end])
		sum = sha1.Sum(want)
		want = append(want, sum[:]...)
		if !bytes.Equal(out, want) {
			t.Errorf("re-rendered index differs:\n got %q\nwant %q", out, want)
		}
	})
}

func TestTreeOrder(t *testing.T) {
	entries := []refEntry{
		{name: "a", mode: filemode.Dir}, {name: "a.md", mode: filemode.Regular},
		{name: "a-b", mode: filemode.Regular}, {name: "a0", mode: filemode.Regular},
		{name: "ab", mode: filemode.Dir}, {name: "b", mode: filemode.Regular}, {name: "A", mode: filemode.Regular},
		{name: "c", mode: filemode.Submodule}, {name: "c.d", mode: filemode.Regular},
	}
	want := slices.Clone(entries)
	sort.Slice(want, func(i, j int) bool { return refKey(want[i]) < refKey(want[j]) })
	got := slices.Clone(entries)
	slices.SortFunc(got, func(a, b refEntry) int {
		return treeOrder([]byte(a.name), a.mode == filemode.Dir, []byte(b.name), b.mode == filemode.Dir)
	})
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(refEntry{})); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// FuzzStateRecords: memgit's small state files (a lock's record, the
// packing state) parse or are refused
// without panicking, and what parses is written back the same.
func FuzzStateRecords(f *testing.F) {
	f.Add(formatOwner(lockOwner{proc: proc.ID{PID: 42, Start: "1234"}, file: fileID{dev: 2049, ino: 77}}))
	f.Add(formatOwner(lockOwner{proc: proc.ID{PID: 42}, file: fileID{ino: 1}}))
	f.Add(formatPackState(packState{loose: 1 << 20, last: time.Unix(1795341845, 0), reused: 3}))
	f.Add("proc 42 1 2\ndev 1\nino 1\n")
	f.Add("pid -1\nstart x\ndev 0\nino 0\n")
	f.Fuzz(func(t *testing.T, data string) {
		if o, ok := parseOwner(data); ok {
			if again, ok := parseOwner(formatOwner(o)); !ok || again != o {
				t.Fatalf("lock record %+v reads back as %+v, %v", o, again, ok)
			}
		}
		st := parsePackState(data)
		if again := parsePackState(formatPackState(st)); again != st {
			t.Fatalf("pack state %+v reads back as %+v", st, again)
		}
	})
}

// FuzzIndexPack: any bytes after a pack header index or fail cleanly,
// and a pack that indexes gives an entry per object.
func FuzzIndexPack(f *testing.F) {
	f.Add(uint32(1), []byte{0x35, 0x78, 0x9c, 0x4b, 0x4c, 0x4a, 0x06, 0x00, 0x02, 0x4d, 0x01, 0x27})
	f.Add(uint32(2), []byte{0x35, 0x78, 0x9c, 0x4b, 0x4c, 0x4a, 0x06, 0x00, 0x02, 0x4d, 0x01, 0x27, 0x65, 0x05, 0x78, 0x9c, 0x63, 0x66, 0x60, 0x64, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x05})
	f.Fuzz(func(t *testing.T, count uint32, body []byte) {
		count %= 64
		pack := binary.BigEndian.AppendUint32(append([]byte("PACK"), 0, 0, 0, 2), count)
		pack = append(pack, body...)
		sum := sha1.Sum(pack)
		pack = append(pack, sum[:]...)
		idx, err := indexPack(bytes.NewReader(pack))
		if err != nil {
			return
		}
		if n, _ := idx.Count(); n > int64(count) {
			t.Fatalf("%d index entries for %d objects", n, count)
		}
	})
}
