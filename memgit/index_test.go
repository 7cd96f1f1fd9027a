package memgit

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// hashedFiles scans the memory directory and lists the files it had to
// read, because the index's stat data could not vouch for them.
func hashedFiles(t *testing.T, r *Repo) []string {
	t.Helper()
	w, err := r.scanDisk(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range w.files {
		if f.hashed {
			out = append(out, f.rel)
		}
	}
	slices.Sort(out)
	return out
}

// settle moves the index's mtime past every file's, as the next clock
// tick would, so that no entry is racy.
func settle(t *testing.T, top string) {
	t.Helper()
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(filepath.Join(top, ".git", "index"), later, later); err != nil {
		t.Fatal(err)
	}
}

func TestStatusTrustsTheIndex(t *testing.T) {
	r, top := newProject(t)
	settle(t, top)
	if got := hashedFiles(t, r); len(got) != 0 {
		t.Errorf("hashed %v after git add, want none: the index vouches for them", got)
	}
	mem := filepath.Join(top, ".memory")
	write(t, filepath.Join(mem, "user_a.md"), "A\n") // same size, new content
	write(t, filepath.Join(mem, "user_new.md"), "new\n")
	if got, want := hashedFiles(t, r), []string{"user_a.md", "user_new.md"}; !slices.Equal(got, want) {
		t.Errorf("hashed %v, want %v", got, want)
	}
	c, err := r.Status()
	if err != nil || !slices.Equal(c.Modified, []string{"user_a.md"}) || !slices.Equal(c.Added, []string{"user_new.md"}) {
		t.Fatalf("Status = %+v, %v", c, err)
	}
	if _, err := r.Commit(c.Paths(), "memdir: edit"); err != nil {
		t.Fatal(err)
	}
	settle(t, top)
	if got := hashedFiles(t, r); len(got) != 0 {
		t.Errorf("hashed %v after memdir's commit, want none", got)
	}
}

// TestRacyEntries checks git's racy-git rule: an entry whose mtime is
// not older than the index is re-hashed, and memgit smudges it when it
// rewrites the index, so that it stays re-hashed.
func TestRacyEntries(t *testing.T) {
	r, top := newProject(t)
	mem := filepath.Join(top, ".memory")
	future := time.Now().Add(time.Hour).Truncate(time.Second)
	a := filepath.Join(mem, "user_a.md")
	if err := os.Chtimes(a, future, future); err != nil {
		t.Fatal(err)
	}
	runGit(t, top, "add", ".memory/user_a.md")
	if got := hashedFiles(t, r); !slices.Contains(got, "user_a.md") {
		t.Fatalf("hashed %v, want user_a.md (its mtime is not older than the index)", got)
	}
	write(t, filepath.Join(mem, "user_b.md"), "b\n")
	if _, err := r.Commit([]string{"user_b.md"}, "memdir: add b"); err != nil {
		t.Fatal(err)
	}
	if got := runGit(t, top, "ls-files", "--debug", ".memory/user_a.md"); !strings.Contains(got, "size: 0\t") {
		t.Errorf("the racy entry was not smudged:\n%s", got)
	}
	// The same size and mtime, other content: only a re-hash sees it.
	write(t, a, "z\n")
	if err := os.Chtimes(a, future, future); err != nil {
		t.Fatal(err)
	}
	settle(t, top)
	c, err := r.Status()
	if err != nil || !slices.Equal(c.Modified, []string{"user_a.md"}) {
		t.Errorf("Status = %+v, %v; want user_a.md modified", c, err)
	}
	if got := runGit(t, top, "status", "--porcelain", ".memory"); got != " M .memory/user_a.md\n" {
		t.Errorf("git status = %q", got)
	}
}

func TestSplitIndexRefused(t *testing.T) {
	r, top := newProject(t)
	runGit(t, top, "update-index", "--split-index")
	write(t, filepath.Join(top, ".memory", "user_c.md"), "c\n")
	c, err := r.Status()
	if err != nil || !slices.Equal(c.Added, []string{"user_c.md"}) {
		t.Fatalf("Status = %+v, %v", c, err)
	}
	_, err = r.Commit([]string{"user_c.md"}, "memdir: add c")
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "split") || !strings.Contains(err.Error(), "--no-split-index") {
		t.Fatalf("Commit = %v, want a refusal that names the split index and the way out", err)
	}
	runGit(t, top, "update-index", "--no-split-index")
	if _, err := r.Commit([]string{"user_c.md"}, "memdir: add c"); err != nil {
		t.Fatal(err)
	}
	runGit(t, top, "fsck", "--strict")
}

// sparseProject makes newProject's repository a cone-mode sparse
// checkout of the given directories.
func sparseProject(t *testing.T, dirs ...string) (*Repo, string) {
	t.Helper()
	_, top := newProject(t)
	runGit(t, top, "sparse-checkout", "init", "--cone")
	runGit(t, top, append([]string{"sparse-checkout", "set"}, dirs...)...)
	if got := runGit(t, top, "config", "extensions.worktreeConfig"); got != "true\n" {
		t.Fatalf("extensions.worktreeConfig = %q, want true", got)
	}
	r, err := Open(filepath.Join(top, ".memory"), testOpts)
	if err != nil {
		t.Fatalf("Open of a sparse checkout: %v", err)
	}
	return r, top
}

func TestSparseCheckoutCommits(t *testing.T) {
	r, top := sparseProject(t, ".memory")
	if _, err := os.Stat(filepath.Join(top, "lib", "lib.go")); err == nil {
		t.Fatal("lib/ is checked out; the sparse checkout did not take")
	}
	write(t, filepath.Join(top, ".memory", "user_c.md"), "c\n")
	res, c, err := r.CommitAll("memdir: add c")
	if err != nil || !res.Committed() || !slices.Equal(c.Paths(), []string{"user_c.md"}) {
		t.Fatalf("CommitAll = %+v, %+v, %v", res, c, err)
	}
	if got := runGit(t, top, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q, want clean", got)
	}
	if got := runGit(t, top, "ls-files", "-t", "lib/lib.go"); got != "S lib/lib.go\n" {
		t.Errorf("lib/lib.go lost its skip-worktree bit: %q", got)
	}
	runGit(t, top, "fsck", "--strict")
}

func TestMemoryOutsideSparseCheckout(t *testing.T) {
	r, top := sparseProject(t, "lib")
	c, err := r.Status()
	if err != nil || !c.Empty() {
		t.Fatalf("Status = %+v, %v; want nothing changed (the files are not checked out)", c, err)
	}
	write(t, filepath.Join(top, ".memory", "user_a.md"), "a, edited\n")
	_, err = r.Commit([]string{"user_a.md"}, "memdir: edit a")
	if !strings.Contains(fmtErr(err), "outside the sparse checkout") || !strings.Contains(fmtErr(err), "git sparse-checkout add .memory") {
		t.Errorf("Commit = %v, want a refusal naming the sparse checkout", err)
	}
}

func TestSparseIndexRefused(t *testing.T) {
	r, top := sparseProject(t, ".memory")
	runGit(t, top, "sparse-checkout", "set", "--sparse-index", ".memory")
	write(t, filepath.Join(top, ".memory", "user_c.md"), "c\n")
	_, err := r.Commit([]string{"user_c.md"}, "memdir: add c")
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "sparse") || !strings.Contains(err.Error(), "--no-sparse-index") {
		t.Fatalf("Commit = %v, want a refusal that names the sparse index and the way out", err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestEmptyBlobHash(t *testing.T) {
	if got := plumbing.ComputeHash(plumbing.BlobObject, nil); got != emptyBlob {
		t.Errorf("emptyBlob = %s, want %s", emptyBlob, got)
	}
}

// TestConflictElsewhere: a path outside memory with conflicts (stages 1
// to 3, as a stash pop leaves them, with no merge in progress) keeps its
// stages in order in a version 2 or 3 index, whose entries memgit copies
// byte for byte; a version 4 index, which goes through go-git's encoder,
// is refused instead, and left as it was.
func TestConflictElsewhere(t *testing.T) {
	for _, tc := range []struct {
		version string
		refused bool
	}{{"2", false}, {"3", false}, {"4", true}} {
		t.Run("v"+tc.version, func(t *testing.T) {
			r, top := newProject(t)
			runGit(t, top, "update-index", "--index-version", tc.version)
			blob := strings.TrimSpace(runGit(t, top, "rev-parse", "HEAD:lib/lib.go"))
			cmd := gitCmd(top, "update-index", "--index-info")
			cmd.Stdin = strings.NewReader("0 " + strings.Repeat("0", 40) + "\tlib/lib.go\n" +
				"100644 " + blob + " 1\tlib/lib.go\n100644 " + blob + " 2\tlib/lib.go\n100644 " + blob + " 3\tlib/lib.go\n")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git update-index --index-info: %v\n%s", err, out)
			}
			before := runGit(t, top, "ls-files", "--stage")
			write(t, filepath.Join(top, ".memory", "user_b.md"), "b\n")
			_, err := r.Commit([]string{"user_b.md"}, "memdir: add user_b.md")
			if tc.refused {
				if !strings.Contains(fmtErr(err), "lib/lib.go has conflicts") {
					t.Fatalf("Commit = %v, want a refusal naming lib/lib.go", err)
				}
				if got := runGit(t, top, "ls-files", "--stage"); got != before {
					t.Errorf("the index changed:\n%s\nwant\n%s", got, before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := runGit(t, top, "ls-files", "--stage", "lib/lib.go")
			if want := strings.Join(slices.DeleteFunc(strings.SplitAfter(before, "\n"), func(l string) bool {
				return !strings.Contains(l, "lib/lib.go")
			}), ""); got != want {
				t.Errorf("lib/lib.go's stages after the commit:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
