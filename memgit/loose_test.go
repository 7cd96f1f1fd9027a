package memgit

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestStoredWriter(t *testing.T) {
	for _, n := range []int{0, 1, storedBlock - 1, storedBlock, storedBlock + 1, 3*storedBlock + 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			data := bytes.Repeat([]byte("0123456789abcdefg"), n/17+1)[:n]
			var buf bytes.Buffer
			zw := newStoredWriter(&buf)
			// Uneven writes, to cross block boundaries mid-write.
			for rest := data; len(rest) > 0; {
				k := min(len(rest), 40000)
				if _, err := zw.Write(rest[:k]); err != nil {
					t.Fatal(err)
				}
				rest = rest[k:]
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			zr, err := zlib.NewReader(&buf)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("inflate: %v", err)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("inflated %d bytes, want the %d written", len(got), len(data))
			}
		})
	}
}

func deflate(s string) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}

func TestReadLoose(t *testing.T) {
	long := "blob 100000\x00" + strings.Repeat("x", 100000)
	corrupt := deflate("blob 3\x00abc")
	corrupt[len(corrupt)-1] ^= 1
	for _, tc := range []struct {
		name, want string
		data       []byte
		fails      bool
	}{
		{name: "blob", data: deflate("blob 3\x00abc"), want: "abc"},
		{name: "empty", data: deflate("blob 0\x00"), want: ""},
		{name: "big", data: deflate(long), want: long[len("blob 100000\x00"):]},
		{name: "other type", data: deflate("tree 3\x00abc"), fails: true},
		{name: "short", data: deflate("blob 4\x00abc"), fails: true},
		{name: "long", data: deflate("blob 2\x00abc"), fails: true},
		{name: "no header end", data: deflate("blob 3"), fails: true},
		{name: "bad size", data: deflate("blob -1\x00"), fails: true},
		{name: "huge size", data: deflate("blob 99999999999\x00"), fails: true},
		{name: "header too long", data: deflate(strings.Repeat("b", 100) + "\x00"), fails: true},
		{name: "bad checksum", data: corrupt, fails: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			zr, err := zlib.NewReader(bytes.NewReader(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			got, err := readLoose(zr, plumbing.BlobObject)
			if (err != nil) != tc.fails {
				t.Fatalf("readLoose error %v, want failure %v", err, tc.fails)
			}
			if !tc.fails && string(got) != tc.want {
				t.Errorf("readLoose = %d bytes, want %d", len(got), len(tc.want))
			}
		})
	}
}

// TestBigObjects: a MEMORY.md and a root tree over bigObject, stored
// uncompressed and streamed, are what git reads back, and fsck passes.
func TestBigObjects(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	var ix strings.Builder
	var paths []string
	for i := range 1000 {
		name := fmt.Sprintf("project_topic_with_a_longer_name_%05d.md", i)
		write(t, filepath.Join(dir, name), fmt.Sprintf("topic %d\n", i))
		fmt.Fprintf(&ix, "- [Topic %d](%s) — a hook long enough to make the index over 64 KB: %d\n", i, name, i)
		paths = append(paths, name)
	}
	write(t, filepath.Join(dir, "MEMORY.md"), ix.String())
	if _, err := r.Commit(append(paths, "MEMORY.md"), "many"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "user_new.md"), "new\n")
	write(t, filepath.Join(dir, "MEMORY.md"), ix.String()+"- [New](user_new.md) — new\n")
	os.Remove(filepath.Join(dir, "project_topic_with_a_longer_name_00007.md"))
	if _, err := r.Commit([]string{"user_new.md", "MEMORY.md", "project_topic_with_a_longer_name_00007.md"}, "add user_new.md"); err != nil {
		t.Fatal(err)
	}
	for _, obj := range []string{"HEAD^{tree}", "HEAD:MEMORY.md"} {
		size, _ := strconv.Atoi(strings.TrimSpace(runGit(t, dir, "cat-file", "-s", obj)))
		if size < bigObject {
			t.Fatalf("%s is %d bytes, want %d or more", obj, size, bigObject)
		}
	}
	if got := runGit(t, dir, "cat-file", "blob", "HEAD:MEMORY.md"); got != ix.String()+"- [New](user_new.md) — new\n" {
		t.Errorf("MEMORY.md at HEAD is %d bytes, want %d", len(got), ix.Len()+len("- [New](user_new.md) — new\n"))
	}
	if out := runGit(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("git status = %q, want clean", out)
	}
	runGit(t, dir, "fsck", "--strict")
	if n := strings.Count(runGit(t, dir, "ls-tree", "HEAD"), "\n"); n != 1000+3 {
		t.Errorf("root tree has %d entries, want %d", n, 1003)
	}
}
