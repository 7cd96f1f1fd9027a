package dailylog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/internal/diskfull"
	"github.com/memdir/memdir/typesx"
)

// A write that the disk cuts short leaves nothing of the entry: the log is
// as it was before the append.
func TestAppendWholeOrAbsentInjected(t *testing.T) {
	dir := t.TempDir()
	if _, err := Append(dir, testNow, Entry{Text: "first"}); err != nil {
		t.Fatal(err)
	}
	path := Path(dir, testNow)
	before, _ := os.ReadFile(path)
	orig := writeEntry
	t.Cleanup(func() { writeEntry = orig })
	// Half the entry reaches the file, then the disk is full.
	writeEntry = func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	long := strings.Repeat("fragment ", 500)
	if _, err := Append(dir, testNow, Entry{Type: typesx.Project, Title: "Big", Text: long}); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Append on a full disk: %v, want ENOSPC", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(before) {
		t.Fatalf("a failed append left %d bytes behind:\n%s", len(after)-len(before), after)
	}
	writeEntry = orig
	if _, err := Append(dir, testNow, Entry{Text: "second"}); err != nil {
		t.Fatal(err)
	}
	entries, problems, err := Read(dir, "", "")
	if err != nil || len(problems) != 0 || len(entries) != 2 {
		t.Fatalf("Read = %d entries, %v, %v; want first and second", len(entries), problems, err)
	}
}

// The same on a real full disk: a tmpfs filled to the last byte, where
// the log's last page has room for part of the entry only.
func TestAppendWholeOrAbsentFullDisk(t *testing.T) {
	dir := diskfull.Mount(t, 64<<10)
	if _, err := Append(dir, testNow, Entry{Text: "first"}); err != nil {
		t.Fatal(err)
	}
	path := Path(dir, testNow)
	before, _ := os.ReadFile(path)
	diskfull.Fill(t, dir, "ballast")
	long := strings.Repeat("fragment ", 1000)
	_, err := Append(dir, testNow, Entry{Type: typesx.Project, Title: "Big", Text: long})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Append on a full disk: %v, want ENOSPC", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(before) {
		t.Fatalf("a failed append left %d bytes of the entry in the log", len(after)-len(before))
	}
}

// A daily log, or a logs directory, linked out of the memory directory is
// never appended to.
func TestAppendRefusesLinkOut(t *testing.T) {
	for _, link := range []string{"logs", "logs/2026/11/2026-11-22.md"} {
		t.Run(link, func(t *testing.T) {
			base := t.TempDir()
			dir, out := filepath.Join(base, "mem"), filepath.Join(base, "out")
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, link)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(out, "target")
			if strings.HasSuffix(link, ".md") {
				if err := os.WriteFile(target, []byte("# elsewhere\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Mkdir(target, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
				t.Fatal(err)
			}
			if _, err := Append(dir, testNow, Entry{Text: "secret plan"}); !errors.Is(err, atomicfile.ErrOutside) {
				t.Fatalf("Append through %s: %v, want ErrOutside", link, err)
			}
			var found bool
			_ = filepath.Walk(out, func(p string, fi os.FileInfo, _ error) error {
				if data, _ := os.ReadFile(p); strings.Contains(string(data), "secret plan") {
					found = true
				}
				return nil
			})
			if found {
				t.Error("the entry was written outside the memory directory")
			}
		})
	}
}

// A daily log linked out of the memory directory is never read: it is a
// problem, and none of its entries reach a dream.
func TestReadRefusesLinkOut(t *testing.T) {
	base := t.TempDir()
	dir, out := filepath.Join(base, "mem"), filepath.Join(base, "out.md")
	if err := os.WriteFile(out, []byte("# 2026-11-22\n\n- outside secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Append(dir, testNow, Entry{Text: "inside"}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(dir, "logs", "2026", "11", "2026-11-21.md")); err != nil {
		t.Fatal(err)
	}
	entries, problems, err := Read(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Text != "inside" {
		t.Errorf("entries = %+v, want only the inside one", entries)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Message, "outside the memory directory") {
		t.Errorf("problems = %v, want the linked log named", problems)
	}
}
