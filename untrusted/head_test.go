package untrusted

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadHead: the start of a file inside the directory, read as
// ReadFile would refuse or allow it: links that stay inside are followed,
// links out and special files are refused, a FIFO without a writer does
// not block.
func TestReadHead(t *testing.T) {
	dir := t.TempDir()
	mem := filepath.Join(dir, "mem")
	must(t, os.MkdirAll(filepath.Join(mem, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "secret"), []byte("KEY"), 0o600))
	must(t, os.WriteFile(filepath.Join(mem, "short.md"), []byte("short"), 0o644))
	must(t, os.WriteFile(filepath.Join(mem, "empty.md"), nil, 0o644))
	must(t, os.WriteFile(filepath.Join(mem, "long.md"), []byte(strings.Repeat("x", 20)), 0o644))
	must(t, os.WriteFile(filepath.Join(mem, "sub", "deep.md"), []byte("deep"), 0o644))
	must(t, os.Symlink("short.md", filepath.Join(mem, "in")))
	must(t, os.Symlink("../secret", filepath.Join(mem, "out")))
	must(t, os.Symlink(filepath.Join(mem, "short.md"), filepath.Join(mem, "abs")))
	must(t, os.Symlink("/dev/zero", filepath.Join(mem, "zero")))
	must(t, os.Symlink("..", filepath.Join(mem, "up"))) // a directory link out: only the last part is O_NOFOLLOW
	must(t, syscall.Mkfifo(filepath.Join(mem, "fifo"), 0o644))

	h, err := OpenHeads(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct {
		name string
		want string
		err  error
	}{
		{"short.md", "short", nil},
		{"empty.md", "", nil},
		{"long.md", strings.Repeat("x", 8), nil}, // the buffer's length
		{"sub/deep.md", "deep", nil},
		{"in", "short", nil},
		{"out", "", ErrOutside},
		{"abs", "", ErrOutside},
		{"zero", "", ErrOutside},
		{"../secret", "", ErrOutside},
		{"up/secret", "", ErrOutside},
		{"fifo", "", ErrNotRegular},
		{"sub", "", ErrNotRegular},
		{"missing", "", fs.ErrNotExist},
	} {
		buf := make([]byte, 8)
		n, err := h.ReadHead(tc.name, buf)
		if got := string(buf[:n]); tc.err == nil && (err != nil || got != tc.want) || tc.err != nil && !errors.Is(err, tc.err) {
			t.Errorf("ReadHead(%s) = %q, %v; want %q, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}
