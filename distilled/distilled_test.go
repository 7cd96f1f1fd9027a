package distilled

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memdir/memdir/dailylog"
)

func entry(file, hash string) dailylog.Entry { return dailylog.Entry{File: file, Hash: hash} }

// TestMarks walks one log through two dreams: repeated entries count by
// occurrence, an appended entry and an edited one (new hash) are
// pending, and the marks survive a write and a read.
func TestMarks(t *testing.T) {
	dir := t.TempDir()
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := []dailylog.Entry{entry("a.md", "x"), entry("a.md", "x"), entry("b.md", "y")}
	if got := m.Pending(first); len(got) != 3 || got[1].ID != "a.md#x#1" {
		t.Fatalf("empty marks: pending %+v, want all three, the second as occurrence 1", got)
	}
	empty := m
	m = m.With(m.Pending(first)[:2])
	data, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, Path)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Path), data, 0o644); err != nil {
		t.Fatal(err)
	}
	later := []dailylog.Entry{entry("a.md", "x"), entry("a.md", "x"), entry("a.md", "x"), entry("b.md", "z")}
	done, err := Of(dir, later)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, false, false}; !reflect.DeepEqual(done, want) {
		t.Errorf("Of = %v, want %v (a third x and the edited b are new)", done, want)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range back.Pending(later) {
		ids = append(ids, p.ID)
	}
	if want := []string{"a.md#x#2", "b.md#z#0"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("pending after reload = %v, want %v", ids, want)
	}
	if len(empty.Logs) != 0 {
		t.Error("With changed the marks it was called on")
	}
}

// TestDamagedMarks names the file and the way out.
func TestDamagedMarks(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, Path)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Path), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Of(dir, nil)
	if err == nil || !strings.Contains(err.Error(), Path) || !strings.Contains(err.Error(), "delete it") {
		t.Fatalf("damaged marks: err = %v, want one naming %s and how to recover", err, Path)
	}
}
