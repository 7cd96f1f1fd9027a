package dailylog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeLogs creates files under dir from a map of slash paths to contents.
func writeLogs(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func testLogDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeLogs(t, dir, map[string]string{
		"logs/2025/12/2025-12-31.md":                   "# 2025-12-31\n\n- a\n",
		"logs/2026/01/2026-01-01.md":                   "# 2026-01-01\n\n- b\n- c\n",
		"logs/2026-01-02.md":                           "- d misplaced but dated\n",
		"logs/2026/01/2026-01-03.md":                   "- e\nstray\n",
		"logs/2026/01/notes.md":                        "- not a log\n",
		"logs/2026/01/.memdir-tmp-2026-01-03.md-12345": "- temp\n",
		"logs/2026/01/2026-02-30.md":                   "- not a date\n",
		"logs/.hidden/2026-01-01.md":                   "- hidden\n",
	})
	// A log that cannot be read: a dangling symlink with a date name.
	if err := os.Symlink("missing", filepath.Join(dir, "logs", "2026", "01", "2026-01-04.md")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestFiles(t *testing.T) {
	dir := testLogDir(t)
	got, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range got {
		rel = append(rel, relSlash(dir, p))
	}
	want := []string{
		"logs/2025/12/2025-12-31.md",
		"logs/2026/01/2026-01-01.md",
		"logs/2026-01-02.md",
		"logs/2026/01/2026-01-03.md",
		"logs/2026/01/2026-01-04.md",
	}
	if diff := cmp.Diff(want, rel); diff != "" {
		t.Errorf("Files mismatch (-want +got):\n%s", diff)
	}
	if got, err := Files(t.TempDir()); err != nil || got != nil {
		t.Errorf("Files of a dir without logs = %v, %v; want nil, nil", got, err)
	}
}

func TestRead(t *testing.T) {
	dir := testLogDir(t)
	tests := []struct {
		since, until string
		want         []string // entry texts
		problems     int
	}{
		{"", "", []string{"a", "b", "c", "d misplaced but dated", "e", "stray"}, 2},
		{"2026-01-01", "", []string{"b", "c", "d misplaced but dated", "e", "stray"}, 2},
		{"", "2026-01-01", []string{"a", "b", "c"}, 0},
		{"2026-01-02", "2026-01-02", []string{"d misplaced but dated"}, 0},
		{"2026-01-04", "", nil, 1},
		{"2027-01-01", "", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.since+".."+tc.until, func(t *testing.T) {
			entries, problems, err := Read(dir, tc.since, tc.until)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Text)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Read texts mismatch (-want +got):\n%s", diff)
			}
			if len(problems) != tc.problems {
				t.Errorf("got problems %v, want %d", problems, tc.problems)
			}
		})
	}
}

func TestReadEntryFields(t *testing.T) {
	dir := testLogDir(t)
	entries, _, err := Read(dir, "2026-01-01", "2026-01-01")
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Date: "2026-01-01", Text: "c", File: "logs/2026/01/2026-01-01.md", Line: 4, Offset: 18, End: 22}
	want.Hash = Hash(want)
	if len(entries) != 2 {
		t.Fatalf("got %d entries, want 2", len(entries))
	}
	if diff := cmp.Diff(want, entries[1]); diff != "" {
		t.Errorf("entry mismatch (-want +got):\n%s", diff)
	}
}

func TestReadRejectsBadDates(t *testing.T) {
	for _, d := range []string{"2026-1-1", "yesterday", "2026-02-30"} {
		t.Run(d, func(t *testing.T) {
			if _, _, err := Read(t.TempDir(), d, ""); !errors.Is(err, ErrInvalidDate) {
				t.Errorf("Read(since %q): got %v, want ErrInvalidDate", d, err)
			}
			if _, _, err := Read(t.TempDir(), "", d); !errors.Is(err, ErrInvalidDate) {
				t.Errorf("Read(until %q): got %v, want ErrInvalidDate", d, err)
			}
		})
	}
}

func TestReadSessionLayout(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "logs", "2026", "11", "22", "abc123-fix-login.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("> remember that staging deploys need the VPN\n. Bash(ls)\n< noted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	es, _, err := Read(dir, "2026-11-22", "2026-11-22")
	if err != nil {
		t.Fatal(err)
	}
	// The user's line is an entry; the assistant's and the tool call are not.
	if len(es) != 1 || es[0].Date != "2026-11-22" || es[0].Text != "remember that staging deploys need the VPN" {
		t.Fatalf("entries = %+v", es)
	}
}

// TestIsLogFileAgreesWithFiles checks that IsLogFile says yes to exactly
// the files Files lists, over every file of a logs tree holding dated
// logs, per-session logs, hidden files and directories and strays.
func TestIsLogFileAgreesWithFiles(t *testing.T) {
	dir := testLogDir(t)
	for _, extra := range []string{"logs/2026/01/02/s1-notes.md", "logs/.hidden/2026-01-05.md", "logs/2026/01/.2026-01-06.md", "logs/2026/01/notes.txt", "logs/readme.md"} {
		p := filepath.Join(dir, filepath.FromSlash(extra))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	listed, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, p := range listed {
		want[relSlash(dir, p)] = true
	}
	n := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := relSlash(dir, p)
		n++
		if got := IsLogFile(rel); got != want[rel] {
			t.Errorf("IsLogFile(%q) = %v; Files lists it: %v", rel, got, want[rel])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < len(want)+4 {
		t.Fatalf("walked %d files, want at least %d", n, len(want)+4)
	}
	for _, rel := range []string{"2026-01-01.md", "logs", "logs/", "../logs/2026-01-01.md", "logs//2026-01-01.md"} {
		if IsLogFile(rel) {
			t.Errorf("IsLogFile(%q) = true", rel)
		}
	}
}
