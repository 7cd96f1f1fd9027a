package memgit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func subjects(cs []Commit) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Subject)
	}
	return out
}

func TestHistory(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	steps := []struct {
		file, data, msg string
	}{
		{"user_a.md", "a1\n", "add user_a.md"},
		{"user_b.md", "b1\n", "add user_b.md"},
		{"user_a.md", "a2\n", "update user_a.md"},
		{"user_a.md", "", "rm user_a.md"},
	}
	for _, s := range steps {
		p := filepath.Join(dir, s.file)
		if s.data == "" {
			os.Remove(p)
		} else {
			write(t, p, s.data)
		}
		if _, err := r.Commit([]string{s.file}, s.msg); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file  string
		limit int
		want  []string
	}{
		{"user_a.md", 0, []string{"rm user_a.md", "update user_a.md", "add user_a.md"}},
		{"user_b.md", 0, []string{"add user_b.md"}},
		{"", 0, []string{"rm user_a.md", "update user_a.md", "add user_b.md", "add user_a.md", "init"}},
		{"", 2, []string{"rm user_a.md", "update user_a.md"}},
		{"nothing.md", 0, nil},
	} {
		got, err := r.History(tc.file, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, subjects(got)); diff != "" {
			t.Errorf("History(%q, %d) (-want +got):\n%s", tc.file, tc.limit, diff)
		}
	}
	// The witness agrees.
	if got := runGit(t, dir, "log", "--format=%s", "--", "user_a.md"); got != "rm user_a.md\nupdate user_a.md\nadd user_a.md\n" {
		t.Errorf("git log -- user_a.md = %q", got)
	}
	data, err := r.FileAt("HEAD~2", "user_a.md")
	if err != nil || string(data) != "a1\n" {
		t.Errorf("FileAt(HEAD~2) = %q, %v; want a1", data, err)
	}
	if _, err := r.FileAt("HEAD", "user_a.md"); !errors.Is(err, ErrNotFound) {
		t.Errorf("FileAt of a removed file: %v, want ErrNotFound", err)
	}
	if _, err := r.Resolve("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(nope): %v, want ErrNotFound", err)
	}
	files, _ := r.FilesAt("HEAD~1")
	if diff := cmp.Diff([]string{".gitignore", ".memdir/mode", "MEMORY.md", "user_a.md", "user_b.md"}, files); diff != "" {
		t.Errorf("FilesAt (-want +got):\n%s", diff)
	}
}

func TestProjectHistoryOnlyMemory(t *testing.T) {
	r, top := newProject(t)
	write(t, filepath.Join(top, "main.go"), "package main // 2\n")
	runGit(t, top, "commit", "-q", "-am", "code only")
	write(t, filepath.Join(top, ".memory", "user_a.md"), "a2\n")
	runGit(t, top, "commit", "-q", "-am", "memory too")
	got, err := r.History("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"memory too", "start"}, subjects(got)); diff != "" {
		t.Errorf("History (-want +got):\n%s", diff)
	}
}

func TestDiff(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	write(t, filepath.Join(dir, "user_a.md"), "one\ntwo\nthree\n")
	if _, err := r.Commit([]string{"user_a.md"}, "add user_a.md"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "user_a.md"), "one\n2\nthree\n")
	write(t, filepath.Join(dir, "user_b.md"), "b\n")
	write(t, filepath.Join(dir, ".memdir", "lock"), "pid\n")
	var buf bytes.Buffer
	n, err := r.Diff(&buf, DiffOptions{})
	if err != nil || n != 2 {
		t.Fatalf("Diff: %d files, %v", n, err)
	}
	for _, want := range []string{"diff --git a/user_a.md b/user_a.md", "-two\n+2\n", "new file mode 100644", "+++ b/user_b.md"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), "lock") {
		t.Errorf("diff shows private state:\n%s", buf.String())
	}
	buf.Reset()
	if n, err := r.Diff(&buf, DiffOptions{Change: "HEAD"}); err != nil || n != 1 || !strings.Contains(buf.String(), "+three") {
		t.Errorf("Diff of HEAD's change: %d, %v\n%s", n, err, buf.String())
	}
	buf.Reset()
	if n, err := r.Diff(&buf, DiffOptions{From: "HEAD~1", To: "HEAD", File: "MEMORY.md"}); err != nil || n != 0 {
		t.Errorf("Diff limited to an unchanged file: %d, %v\n%s", n, err, buf.String())
	}
}

func TestShallowClone(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	for _, f := range []string{"user_a.md", "user_b.md", "user_c.md"} {
		write(t, filepath.Join(dir, f), f+"\n")
		if _, err := r.Commit([]string{f}, "add "+f); err != nil {
			t.Fatal(err)
		}
	}
	if r.Shallow() {
		t.Error("a full repository says it is shallow")
	}
	clone := filepath.Join(t.TempDir(), "clone")
	runGit(t, dir, "clone", "-q", "--depth", "2", "file://"+dir, clone)
	c, err := Open(clone, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Shallow() {
		t.Error("a shallow clone does not say it is shallow")
	}
	got, err := c.History("", 0)
	if err != nil {
		t.Fatalf("History in a shallow clone: %v", err)
	}
	if diff := cmp.Diff([]string{"add user_c.md", "add user_b.md"}, subjects(got)); diff != "" {
		t.Errorf("History (-want +got):\n%s", diff)
	}
	if got, err := c.History("user_a.md", 0); err != nil || len(got) != 1 {
		t.Errorf("History(user_a.md) = %v, %v; want the boundary commit, which has it", subjects(got), err)
	}
	if _, err := c.Resolve("HEAD~2"); err == nil || !strings.Contains(err.Error(), "shallow") {
		t.Errorf("Resolve(HEAD~2) = %v, want it to say the history is shallow", err)
	}
	var buf bytes.Buffer
	if _, err := c.Diff(&buf, DiffOptions{Change: "HEAD~1"}); err != nil {
		t.Errorf("Diff of the boundary commit: %v", err)
	}
	write(t, filepath.Join(clone, "user_d.md"), "d\n")
	if res, _, err := c.CommitAll("add user_d.md"); err != nil || !res.Committed() {
		t.Fatalf("CommitAll in a shallow clone = %+v, %v", res, err)
	}
	runGit(t, clone, "fsck")
}
