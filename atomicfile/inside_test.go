package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// linkedDir makes a memory directory holding links that stay inside and
// links that leave it, beside an outside directory with a secret.
func linkedDir(t *testing.T) (mem, out string) {
	t.Helper()
	base := t.TempDir()
	mem, out = filepath.Join(base, "mem"), filepath.Join(base, "out")
	for _, d := range []string{mem, out, filepath.Join(mem, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(out, "secret"), "outside")
	write(t, filepath.Join(mem, "in.md"), "inside")
	links := map[string]string{
		"out.md":  "../out/secret",
		"abs.md":  filepath.Join(out, "secret"),
		"dang.md": "../out/missing",
		"link.md": "in.md",
		"outdir":  "../out",
		"sub/up":  "../in.md",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(mem, name)); err != nil {
			t.Fatal(err)
		}
	}
	return mem, out
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadInside(t *testing.T) {
	mem, _ := linkedDir(t)
	for _, tc := range []struct {
		rel     string
		want    string
		outside bool
	}{
		{"in.md", "inside", false},
		{"link.md", "inside", false},
		{"sub/up", "inside", false},
		{"out.md", "", true},
		{"abs.md", "", true},
		{"dang.md", "", true},
		{"outdir/secret", "", true},
		{"../out/secret", "", true},
	} {
		got, err := ReadInside(mem, tc.rel)
		if tc.outside {
			if !errors.Is(err, ErrOutside) {
				t.Errorf("ReadInside(%s) = %q, %v; want ErrOutside", tc.rel, got, err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("ReadInside(%s) = %q, %v; want %q", tc.rel, got, err, tc.want)
		}
	}
	if _, err := ReadInside(mem, "missing.md"); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrOutside) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
	if _, err := StatInside(mem, "out.md"); !errors.Is(err, ErrOutside) {
		t.Errorf("StatInside(out.md) = %v, want ErrOutside", err)
	}
	if err := MkdirAllInside(mem, "outdir", 0o755); !errors.Is(err, ErrOutside) {
		t.Errorf("MkdirAllInside(outdir) = %v, want ErrOutside", err)
	}
	if err := MkdirAllInside(mem, "outdir/new", 0o755); !errors.Is(err, ErrOutside) {
		t.Errorf("MkdirAllInside(outdir/new) = %v, want ErrOutside", err)
	}
}

// The memory directory itself may be a symlink.
func TestInsideLinkedRoot(t *testing.T) {
	mem, _ := linkedDir(t)
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(mem, alias); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadInside(alias, "link.md"); err != nil || string(got) != "inside" {
		t.Errorf("ReadInside through a linked root = %q, %v", got, err)
	}
	if err := WriteInside(alias, "new.md", []byte("x"), Options{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(mem, "new.md")); string(got) != "x" {
		t.Errorf("new.md = %q", got)
	}
}

func TestWriteInsideNeverWritesOutside(t *testing.T) {
	mem, out := linkedDir(t)
	// A link at the target is replaced, not written through.
	if err := WriteInside(mem, "out.md", []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "secret")); string(got) != "outside" {
		t.Errorf("the outside file became %q", got)
	}
	if fi, _ := os.Lstat(filepath.Join(mem, "out.md")); !fi.Mode().IsRegular() {
		t.Errorf("out.md is still %v", fi.Mode())
	}
	// A linked directory on the way is refused.
	if err := WriteInside(mem, "outdir/x.md", []byte("x"), Options{}); !errors.Is(err, ErrOutside) {
		t.Errorf("write through a linked directory: %v, want ErrOutside", err)
	}
	if _, err := os.Stat(filepath.Join(out, "x.md")); err == nil {
		t.Error("x.md was written outside")
	}
}

func TestWriteInsideExpect(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "t.md"), "one\n")
	_, st, err := ReadStamped(dir, "t.md")
	if err != nil {
		t.Fatal(err)
	}
	// Someone else edits the file: same size, other content.
	write(t, filepath.Join(dir, "t.md"), "two\n")
	if err := WriteInside(dir, "t.md", []byte("mine\n"), Options{Expect: &st}); !errors.Is(err, ErrChanged) {
		t.Fatalf("write over a changed file: %v, want ErrChanged", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "t.md")); string(got) != "two\n" {
		t.Errorf("the other edit was lost: %q", got)
	}
	_, st, _ = ReadStamped(dir, "t.md")
	if err := WriteInside(dir, "t.md", []byte("mine\n"), Options{Expect: &st}); err != nil {
		t.Fatalf("write over an unchanged file: %v", err)
	}
	// A zero stamp means "still absent".
	write(t, filepath.Join(dir, "new.md"), "someone was first")
	if err := WriteInside(dir, "new.md", []byte("x"), Options{Expect: &Stamp{}}); !errors.Is(err, ErrChanged) {
		t.Errorf("create over a file made meanwhile: %v, want ErrChanged", err)
	}
	if err := WriteInside(dir, "fresh.md", []byte("x"), Options{Expect: &Stamp{}}); err != nil {
		t.Errorf("create: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("left %d entries, want 3 (no temp)", len(ents))
	}
}

func TestTempPID(t *testing.T) {
	for name, want := range map[string]int{
		TempPrefix + "MEMORY.md-123-abcdef": 123,
		TempPrefix + "a-b-c.md-9-00ff":      9,
		TempPrefix + "MEMORY.md-12345678":   0, // an older memdir's temp
		"feedback_x.md":                     0,
		TempPrefix + "x-0-ab":               0,
	} {
		if got := TempPID(name); got != want {
			t.Errorf("TempPID(%q) = %d, want %d", name, got, want)
		}
	}
}

func TestCleanTemps(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	dead := cmd.Process.Pid
	now := time.Now()
	files := map[string]time.Time{
		TempPrefix + "MEMORY.md-" + strconv.Itoa(dead) + "-aa":        now,                     // writer gone: removed
		TempPrefix + "MEMORY.md-" + strconv.Itoa(os.Getpid()) + "-bb": now,                     // live writer: kept
		TempPrefix + "old.md-12345678":                                now.Add(-2 * time.Hour), // old: removed
		TempPrefix + "young.md-12345678":                              now,                     // unknown writer, young: kept
		"feedback_x.md":                                               now.Add(-2 * time.Hour),
	}
	for name, mt := range files {
		write(t, filepath.Join(dir, name), "x")
		if err := os.Chtimes(filepath.Join(dir, name), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	removed := CleanTemps(dir, []string{".", "missing"}, time.Hour, now)
	if len(removed) != 2 {
		t.Errorf("removed %v, want the dead writer's and the old one", removed)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("%d files left, want 3", len(ents))
	}
}

// A writer that opened the file before memdir's rename and writes after
// it would write into the unlinked file: settle sees that, puts its
// content back and asks for the change to be redone.
func TestSettleKeepsALateWrite(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "t.md"), "one\n")
	_, st, err := ReadStamped(dir, "t.md")
	if err != nil {
		t.Fatal(err)
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	old, err := st.check(root, "t.md")
	if err != nil || old == nil {
		t.Fatalf("check = %v, %v", old, err)
	}
	defer old.Close()
	late, err := os.OpenFile(filepath.Join(dir, "t.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// memdir's rename lands, then the other writer writes.
	write(t, filepath.Join(dir, "new"), "mine\n")
	if err := os.Rename(filepath.Join(dir, "new"), filepath.Join(dir, "t.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := late.WriteString("late line\n"); err != nil {
		t.Fatal(err)
	}
	late.Close()
	if err := st.settle(root, "t.md", old, []byte("mine\n")); !errors.Is(err, ErrChanged) {
		t.Fatalf("settle = %v, want ErrChanged", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "t.md")); string(got) != "one\nlate line\n" {
		t.Errorf("t.md = %q, want the late write back", got)
	}
	if fi, err := os.Stat(filepath.Join(dir, "t.md")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("t.md's mode after settle = %v (%v), want the file's own 0644", fi.Mode(), err)
	}
	// Nothing late: settle is quiet.
	_, st, _ = ReadStamped(dir, "t.md")
	old2, _ := st.check(root, "t.md")
	defer old2.Close()
	if err := st.settle(root, "t.md", old2, nil); err != nil {
		t.Errorf("settle with no late write = %v", err)
	}
}
