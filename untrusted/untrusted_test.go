package untrusted

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	must(t, os.MkdirAll(filepath.Join(proj, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "secret"), []byte("KEY"), 0o600))
	must(t, os.WriteFile(filepath.Join(proj, "AGENTS.md"), []byte("ok"), 0o644))
	must(t, os.WriteFile(filepath.Join(proj, "big"), make([]byte, 101), 0o644))
	must(t, os.Symlink("../secret", filepath.Join(proj, "out")))
	must(t, os.Symlink(filepath.Join(dir, "secret"), filepath.Join(proj, "abs")))
	must(t, os.Symlink("AGENTS.md", filepath.Join(proj, "in")))
	must(t, os.Symlink("../AGENTS.md", filepath.Join(proj, "sub", "up")))
	must(t, os.Symlink("/dev/zero", filepath.Join(proj, "zero")))
	must(t, syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644))

	for _, tc := range []struct {
		name, within string
		want         string
		err          error
	}{
		{"AGENTS.md", proj, "ok", nil},
		{"in", proj, "ok", nil},
		{"sub/up", proj, "ok", nil},
		{"out", proj, "", ErrOutside},
		{"abs", proj, "", ErrOutside},
		{"zero", proj, "", ErrOutside},
		{"zero", "", "", ErrNotRegular},
		{"fifo", proj, "", ErrNotRegular},
		{"fifo", "", "", ErrNotRegular},
		{"sub", proj, "", ErrNotRegular},
		{"big", proj, "", ErrTooLarge},
		{"out", "", "KEY", nil}, // a file the user placed: followed
		{"missing", proj, "", fs.ErrNotExist},
	} {
		got, err := ReadFile(filepath.Join(proj, tc.name), tc.within, 100)
		if tc.err == nil && (err != nil || string(got) != tc.want) || tc.err != nil && !errors.Is(err, tc.err) {
			t.Errorf("ReadFile(%s, within %q) = %q, %v; want %q, %v", tc.name, tc.within, got, err, tc.want, tc.err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "secret"), proj, 100); !errors.Is(err, ErrOutside) {
		t.Errorf("a path outside within: %v, want ErrOutside", err)
	}
}

// TestReadCapsAGrowingFile: the cap holds for a file that grows while it
// is read (its size at open time is not trusted).
func TestReadCapsAGrowingFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	must(t, os.WriteFile(p, []byte("small"), 0o644))
	f, err := os.Open(p)
	must(t, err)
	defer f.Close()
	must(t, os.WriteFile(p, make([]byte, 1000), 0o644))
	if _, err := Read(f, p, 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read of a file grown past the cap: %v, want ErrTooLarge", err)
	}
}

func TestErrorSaysWhat(t *testing.T) {
	dir := t.TempDir()
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	_, err := ReadFile(filepath.Join(dir, "fifo"), dir, 10)
	if want := filepath.Join(dir, "fifo") + ": not a regular file (a FIFO)"; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
