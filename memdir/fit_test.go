package memdir

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// writeFact writes project topic i, modified on day i of 2026: the newest
// come first in a fitted index and the oldest go to its overflow.
func writeFact(t *testing.T, d *Dir, i, day int) {
	t.Helper()
	name := fmt.Sprintf("Fact %03d", i)
	modified := "modified: " + time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, day).Format(time.RFC3339)
	text := topicText(name, "Project fact "+name, "project", modified)
	if err := os.WriteFile(filepath.Join(d.Path, fmt.Sprintf("project_fact_%03d.md", i)), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listed counts how many of MEMORY.md and its overflow indexes list each
// topic file.
func listed(t *testing.T, d *Dir) map[string]int {
	t.Helper()
	link := regexp.MustCompile(`\]\((project_fact_\d+\.md)\)`)
	n := map[string]int{}
	for _, name := range d.indexPaths() {
		data, err := os.ReadFile(filepath.Join(d.Path, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			n[m[1]]++
		}
	}
	return n
}

// crash is what a Fault hook panics with to stop an operation where a
// killed process would stop.
type crash string

// crashAt runs op and stops it, as a kill would, just before memdir
// renames its nth new copy of file into place.
func crashAt(t *testing.T, d *Dir, file string, nth int, op func() error) {
	t.Helper()
	seen := 0
	d.fault = func(point string) {
		if point == "write "+file {
			if seen++; seen == nth {
				panic(crash(point))
			}
		}
	}
	defer func() {
		d.fault = nil
		if r := recover(); r == nil {
			t.Fatalf("memdir never wrote %s: the test proves nothing", file)
		} else if _, ok := r.(crash); !ok {
			panic(r)
		}
	}()
	_ = op()
}

// TestFitCrashKeepsEveryEntryListed stops a fit that moves an entry from
// an overflow index up to MEMORY.md at each of its writes: every topic is
// still listed in some index.
func TestFitCrashKeepsEveryEntryListed(t *testing.T) {
	for _, c := range []struct {
		at  string
		nth int
	}{{"MEMORY-project.md", 1}, {IndexFile, 1}, {"MEMORY-project.md", 2}} {
		t.Run(fmt.Sprintf("%s#%d", c.at, c.nth), func(t *testing.T) {
			d := newTestDir(t)
			for i := range 300 {
				writeFact(t, d, i, i)
			}
			if _, err := d.Fit(); err != nil {
				t.Fatal(err)
			}
			if n := listed(t, d)["project_fact_000.md"]; n != 1 {
				t.Fatalf("the oldest fact is listed %d times, want once", n)
			}
			mustContain(t, filepath.Join(d.Path, "MEMORY-project.md"), "(project_fact_000.md)")
			// The oldest fact becomes the newest: the next fit moves it
			// from the overflow index up to MEMORY.md.
			writeFact(t, d, 0, 400)
			crashAt(t, d, c.at, c.nth, func() error { _, err := d.Fit(); return err })
			n := listed(t, d)
			for i := range 300 {
				if f := fmt.Sprintf("project_fact_%03d.md", i); n[f] == 0 {
					t.Errorf("%s is listed in no index after a crash at the write of %s", f, c.at)
				}
			}
			// The next fit finishes the job: each topic listed once.
			if _, err := d.Fit(); err != nil {
				t.Fatal(err)
			}
			for f, k := range listed(t, d) {
				if k != 1 {
					t.Errorf("%s listed %d times after the fit that followed", f, k)
				}
			}
			mustContain(t, filepath.Join(d.Path, IndexFile), "(project_fact_000.md)")
		})
	}
}

// TestFitTwiceWritesNothing: a fit (or a rebuild that fits) with nothing
// new to say writes no file and reports no change (no commit follows).
func TestFitTwiceWritesNothing(t *testing.T) {
	d := newTestDir(t)
	for i := range 300 {
		writeFact(t, d, i, i)
	}
	if _, err := d.Rebuild(); err != nil {
		t.Fatal(err)
	}
	if got := d.OverflowFiles(); len(got) != 1 {
		t.Fatalf("overflow indexes %q, want MEMORY-project.md", got)
	}
	var writes []string
	changes := 0
	d = Open(d.Path, d.Mode, WithCommitter(CommitFunc(func(Change) error { changes++; return nil })))
	d.clock = func() time.Time { return raceNow }
	d.fault = func(point string) { writes = append(writes, point) }
	for _, op := range []func() ([]Problem, error){d.Rebuild, d.Fit} {
		if _, err := op(); err != nil {
			t.Fatal(err)
		}
	}
	if len(writes) > 0 || changes > 0 {
		t.Errorf("with nothing changed: writes %q and %d changes, want none", writes, changes)
	}
}

// TestRebuildKeepsVisibleEntries: hand-written lines past the cap do not
// make a rebuild hide the entries an agent does load behind a pointer.
func TestRebuildKeepsVisibleEntries(t *testing.T) {
	d := newTestDir(t)
	for i := range 10 {
		writeFact(t, d, i, i)
	}
	var notes []byte
	for i := range 250 {
		notes = fmt.Appendf(notes, "note %d a person wrote\n", i)
	}
	if err := os.WriteFile(filepath.Join(d.Path, IndexFile), append([]byte("- [Fact 000](project_fact_000.md) — first\n\n"), notes...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Rebuild(); err != nil {
		t.Fatal(err)
	}
	if got := d.OverflowFiles(); len(got) != 0 {
		t.Fatalf("overflow indexes %q: the rebuild hid entries that were all loaded", got)
	}
	mustContain(t, filepath.Join(d.Path, IndexFile), "(project_fact_009.md)", "note 249 a person wrote")
}

// TestIndexLeavesConflictCopiesOut: a conflict copy a sync or git pull
// kept beside a topic is not a topic of its own: rebuild and fit never
// give it an index line (lint lists it until a person merges it).
func TestIndexLeavesConflictCopiesOut(t *testing.T) {
	d := newTestDir(t)
	writeFact(t, d, 1, 1)
	data, err := os.ReadFile(filepath.Join(d.Path, "project_fact_001.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path, "project_fact_001.conflict-0a1b2c3.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, op := range map[string]func() ([]Problem, error){"rebuild": d.Rebuild, "fit": d.Fit} {
		if _, err := op(); err != nil {
			t.Fatal(err)
		}
		idx, err := os.ReadFile(filepath.Join(d.Path, IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(idx), "conflict-") || !strings.Contains(string(idx), "(project_fact_001.md)") {
			t.Errorf("after %s, MEMORY.md is\n%s\nwant the topic listed and its conflict copy not", name, idx)
		}
	}
}
