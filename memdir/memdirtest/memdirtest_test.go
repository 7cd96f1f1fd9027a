package memdirtest

import (
	"testing"
	"time"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	d := memdir.Open(dir, memdir.Live)
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, 40, time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	topics, problems, err := d.List()
	if err != nil || len(problems) > 0 || len(topics) != 40 {
		t.Fatalf("List = %d topics, %v, %v; want 40 clean", len(topics), problems, err)
	}
	data, err := d.IndexBytes()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(index.Parse(data).Entries()); n != 40 {
		t.Errorf("MEMORY.md lists %d topics, want 40", n)
	}
	if a, b := Request(7), Request(7); a.Name != b.Name || a.Text != b.Text {
		t.Errorf("Request(7) differs between calls: %q, %q", a.Name, b.Name)
	}
}
