package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBatch writes through a batch and checks that it keeps every
// refusal of WriteInside (a path leading outside, a file changed since
// it was read) and that both ways of syncing it, syncfs and the
// file-by-file fallback, succeed over what it wrote, even a file removed
// since.
func TestBatch(t *testing.T) {
	mem, out := linkedDir(t)
	b, err := NewBatch(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := os.MkdirAll(filepath.Join(mem, "sub", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"a.md", "sub/deep/b.md", "gone.md", "out.md"} {
		if err := WriteInside(mem, rel, []byte("new "+rel), Options{Batch: b}); err != nil {
			t.Fatalf("write %s: %v", rel, err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(out, "secret")); string(got) != "outside" {
		t.Errorf("a batched write went through a link: the outside file became %q", got)
	}
	if err := WriteInside(mem, "outdir/x.md", []byte("x"), Options{Batch: b}); !errors.Is(err, ErrOutside) {
		t.Errorf("batched write through a linked directory: %v, want ErrOutside", err)
	}
	_, st, err := ReadStamped(mem, "a.md")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(mem, "a.md"), "an edit")
	if err := WriteInside(mem, "a.md", []byte("mine"), Options{Batch: b, Expect: &st}); !errors.Is(err, ErrChanged) {
		t.Errorf("batched write over a changed file: %v, want ErrChanged", err)
	}
	if err := os.Remove(filepath.Join(mem, "gone.md")); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(); err != nil {
		t.Errorf("Sync: %v", err)
	}
	if err := b.syncEach(); err != nil {
		t.Errorf("the fallback sync: %v", err)
	}
	want := map[string]string{"a.md": "an edit", "sub/deep/b.md": "new sub/deep/b.md", "out.md": "new out.md"}
	for rel, w := range want {
		if got, err := os.ReadFile(filepath.Join(mem, rel)); string(got) != w {
			t.Errorf("%s = %q, %v; want %q", rel, got, err, w)
		}
	}
	for _, d := range []string{mem, filepath.Join(mem, "sub", "deep"), out} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), TempPrefix) {
				t.Errorf("a temp is left: %s", filepath.Join(d, e.Name()))
			}
		}
	}
	files := slices.Clone(b.files)
	slices.Sort(files)
	if want := []string{"a.md", "gone.md", "out.md", "sub/deep/b.md"}; !slices.Equal(files, want) {
		t.Errorf("the batch recorded files %v, want %v: the fallback must sync each", files, want)
	}
	for _, d := range []string{".", "sub", "sub/deep"} {
		if !b.dirs[d] {
			t.Errorf("the batch did not record directory %s, which the fallback must sync", d)
		}
	}
}
