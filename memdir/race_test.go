package memdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/typesx"
)

var raceNow = time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)

func newTestDir(t *testing.T) *Dir {
	t.Helper()
	d := Open(t.TempDir(), Live)
	d.clock = func() time.Time { return raceNow }
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	return d
}

// handEdit appends a line to a file, as a person's editor or an agent does
// without memdir's lock.
func handEdit(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}

// editAt makes d's writes of file meet a hand edit the first n times:
// the edit lands after memdir read the file and before it replaces it.
func editAt(t *testing.T, d *Dir, file, line string, n int) *int {
	hits := new(int)
	t.Cleanup(func() {
		if *hits == 0 {
			t.Errorf("memdir never wrote %s: the test proves nothing", file)
		}
	})
	d.fault = func(point string) {
		if point == "write "+file && *hits < n {
			*hits++
			handEdit(t, filepath.Join(d.Path, file), line)
		}
	}
	return hits
}

func mustContain(t *testing.T, path string, want ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(string(data), w) {
			t.Errorf("%s lost %q:\n%s", filepath.Base(path), w, data)
		}
	}
}

// Every read-modify-write of a topic or an index keeps an edit made
// between memdir's read and its write.
func TestHandEditsNeverLost(t *testing.T) {
	add := func(d *Dir, text string) (AddResult, error) {
		return d.Add(AddRequest{Type: typesx.Feedback, Name: "Testing policy", Text: text})
	}
	t.Run("add merges into an edited topic", func(t *testing.T) {
		d := newTestDir(t)
		if _, err := add(d, "Integration tests hit a real database."); err != nil {
			t.Fatal(err)
		}
		editAt(t, d, "feedback_testing_policy.md", "\nHand-written line.\n", 1)
		res, err := add(d, "Run the migration suite first.")
		if err != nil || res.Action != Updated {
			t.Fatalf("add = %+v, %v", res, err)
		}
		mustContain(t, filepath.Join(d.Path, "feedback_testing_policy.md"), "Hand-written line.", "Run the migration suite first.", "real database")
	})
	t.Run("add keeps an edited MEMORY.md", func(t *testing.T) {
		d := newTestDir(t)
		editAt(t, d, IndexFile, "- a note a person wrote\n", 1)
		res, err := add(d, "Integration tests hit a real database.")
		if err != nil || res.Action != Created {
			t.Fatalf("add = %+v, %v", res, err)
		}
		mustContain(t, filepath.Join(d.Path, IndexFile), "a note a person wrote", "(feedback_testing_policy.md)")
	})
	t.Run("a file that never stops changing is refused", func(t *testing.T) {
		d := newTestDir(t)
		if _, err := add(d, "Integration tests hit a real database."); err != nil {
			t.Fatal(err)
		}
		editAt(t, d, "feedback_testing_policy.md", "\nagain\n", 1000)
		if _, err := add(d, "Another rule."); !errors.Is(err, ErrConflict) {
			t.Fatalf("add = %v, want ErrConflict", err)
		}
		mustContain(t, filepath.Join(d.Path, "feedback_testing_policy.md"), "again")
	})
	t.Run("index --fit", func(t *testing.T) {
		d := newTestDir(t)
		if _, err := add(d, "Integration tests hit a real database."); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.Path, "user_role.md"), []byte(topicText("Role", "Go engineer", "user")), 0o644); err != nil {
			t.Fatal(err)
		}
		hits := editAt(t, d, IndexFile, "\n## Notes a person wrote\n", 1)
		if _, err := d.Fit(); err != nil {
			t.Fatal(err)
		}
		if *hits != 1 {
			t.Fatal("fit did not rewrite MEMORY.md")
		}
		mustContain(t, filepath.Join(d.Path, IndexFile), "Notes a person wrote", "(user_role.md)")
	})
	t.Run("index --rebuild", func(t *testing.T) {
		d := newTestDir(t)
		if err := os.WriteFile(filepath.Join(d.Path, "user_role.md"), []byte(topicText("Role", "Go engineer", "user")), 0o644); err != nil {
			t.Fatal(err)
		}
		editAt(t, d, IndexFile, "- a note a person wrote\n", 1)
		if _, err := d.Rebuild(); err != nil {
			t.Fatal(err)
		}
		mustContain(t, filepath.Join(d.Path, IndexFile), "a note a person wrote", "(user_role.md)")
	})
	t.Run("index --rebuild past the caps", func(t *testing.T) {
		// 300 topics are over the 200-line cap, so the rebuild fits the
		// index: a person's edit made meanwhile is still kept.
		d := newTestDir(t)
		for i := range 300 {
			name := fmt.Sprintf("Fact %03d", i)
			file := filepath.Join(d.Path, fmt.Sprintf("project_fact_%03d.md", i))
			if err := os.WriteFile(file, []byte(topicText(name, "Project fact "+name, "project")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		editAt(t, d, IndexFile, "- a note a person wrote\n", 1)
		if _, err := d.Rebuild(); err != nil {
			t.Fatal(err)
		}
		mustContain(t, filepath.Join(d.Path, IndexFile), "a note a person wrote", "(MEMORY-project.md)")
		if got := d.OverflowFiles(); len(got) != 1 || got[0] != "MEMORY-project.md" {
			t.Fatalf("overflow files = %q, want MEMORY-project.md", got)
		}
	})
	t.Run("watch's reconciliation", func(t *testing.T) {
		d := newTestDir(t)
		if err := os.WriteFile(filepath.Join(d.Path, "user_role.md"), []byte(topicText("Role", "Go engineer", "user")), 0o644); err != nil {
			t.Fatal(err)
		}
		editAt(t, d, IndexFile, "- a note a person wrote\n", 1)
		if _, err := d.ReconcileWith(ReconcileRequest{Files: []string{"user_role.md"}, What: "watch"}); err != nil {
			t.Fatal(err)
		}
		mustContain(t, filepath.Join(d.Path, IndexFile), "a note a person wrote", "(user_role.md)")
	})
	t.Run("rm", func(t *testing.T) {
		d := newTestDir(t)
		for _, name := range []string{"Testing policy", "Style"} {
			if _, err := d.Add(AddRequest{Type: typesx.Feedback, Name: name, Text: name + " text."}); err != nil {
				t.Fatal(err)
			}
		}
		editAt(t, d, IndexFile, "- a note a person wrote\n", 1)
		if err := d.Remove("feedback_style.md"); err != nil {
			t.Fatal(err)
		}
		mustContain(t, filepath.Join(d.Path, IndexFile), "a note a person wrote", "(feedback_testing_policy.md)")
		if data, _ := os.ReadFile(filepath.Join(d.Path, IndexFile)); strings.Contains(string(data), "feedback_style.md") {
			t.Error("the removed topic is still listed")
		}
	})
	t.Run("edit's index update", func(t *testing.T) {
		d := newTestDir(t)
		if _, err := add(d, "Integration tests hit a real database."); err != nil {
			t.Fatal(err)
		}
		file := "feedback_testing_policy.md"
		base, _ := os.ReadFile(filepath.Join(d.Path, file))
		edited := strings.Replace(string(base), "description: Integration", "description: All integration", 1)
		editAt(t, d, IndexFile, "- a note a person wrote\n", 1)
		if _, err := d.Replace(file, base, []byte(edited)); err != nil {
			t.Fatal(err)
		}
		mustContain(t, filepath.Join(d.Path, IndexFile), "a note a person wrote")
	})
}

// Appending to a topic never takes its body past the limit.
func TestAddKeepsTheBodyCap(t *testing.T) {
	d := newTestDir(t)
	chunk := strings.Repeat("word ", 3900) // 19,500 bytes
	for i, want := range []error{nil, nil, &InputError{}} {
		_, err := d.Add(AddRequest{Type: typesx.Reference, Name: "Notes", Text: string(rune('a'+i)) + " " + chunk})
		if (err == nil) != (want == nil) || err != nil && !IsInput(err) {
			t.Fatalf("add %d: %v, want %v", i, err, want)
		}
	}
	tp, err := d.Read("reference_notes.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Body) > MaxBodyBytes {
		t.Errorf("body is %d bytes, over %d", len(tp.Body), MaxBodyBytes)
	}
}
