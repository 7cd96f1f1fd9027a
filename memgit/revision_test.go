package memgit

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// newHistoryRepo makes a project with a merge, a side branch, a
// lightweight and an annotated tag and a remote-tracking branch, and
// opens its memory directory.
func newHistoryRepo(t *testing.T) (*Repo, string) {
	t.Helper()
	requireGit(t)
	top := t.TempDir()
	runGit(t, top, "init", "-q", "-b", "main")
	step := func(file, msg string) {
		write(t, filepath.Join(top, ".memory", file), msg+"\n")
		runGit(t, top, "add", ".")
		runGit(t, top, "commit", "-q", "-m", msg)
	}
	step("a.md", "a")
	step("b.md", "b")
	runGit(t, top, "checkout", "-q", "-b", "side")
	step("c.md", "c")
	runGit(t, top, "checkout", "-q", "main")
	step("d.md", "d")
	runGit(t, top, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	runGit(t, top, "tag", "light", "HEAD~1")
	runGit(t, top, "tag", "-a", "-m", "annotated", "v1", "HEAD")
	runGit(t, top, "update-ref", "refs/remotes/origin/main", "HEAD~2")
	runGit(t, top, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	r, err := Open(filepath.Join(top, ".memory"), testOpts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return r, top
}

func TestResolveMatchesGit(t *testing.T) {
	r, top := newHistoryRepo(t)
	head := strings.TrimSpace(runGit(t, top, "rev-parse", "HEAD"))
	second := strings.TrimSpace(runGit(t, top, "rev-parse", "HEAD^2"))
	revs := []string{
		"HEAD", "@", "main", "side", "heads/side", "refs/heads/side", "light", "v1",
		"tags/v1", "refs/tags/v1", "origin/main", "origin", "ORIG_HEAD",
		"HEAD~1", "HEAD~", "HEAD^", "HEAD^1", "HEAD^2", "HEAD^0", "HEAD^2~1", "HEAD~2^",
		"HEAD~1~1", "v1~1", "v1^2", "main^^", "@~2",
		head, head + "~1", strings.ToUpper(head[:10]), head[:4], head[:7], head[:9], second[:7] + "^",
	}
	for _, packed := range []bool{false, true} {
		if packed {
			runGit(t, top, "gc", "-q")
			if out := runGit(t, top, "count-objects"); !strings.HasPrefix(out, "0 objects") {
				t.Fatalf("after git gc: %s", out)
			}
			var err error
			if r, err = Open(filepath.Join(top, ".memory"), testOpts); err != nil {
				t.Fatal(err)
			}
		}
		for _, rev := range revs {
			t.Run(fmt.Sprintf("packed=%v/%s", packed, rev), func(t *testing.T) {
				want := strings.TrimSpace(runGit(t, top, "rev-parse", "--verify", "-q", rev+"^{commit}"))
				got, err := r.Resolve(rev)
				if err != nil {
					t.Fatalf("Resolve(%q): %v; git says %s", rev, err, want)
				}
				if got.Hash != want {
					t.Errorf("Resolve(%q) = %s, git says %s", rev, got.Hash, want)
				}
			})
		}
	}
}

func TestResolveUnknown(t *testing.T) {
	r, top := newHistoryRepo(t)
	tree := strings.TrimSpace(runGit(t, top, "rev-parse", "HEAD^{tree}"))
	for _, rev := range []string{
		"", "nope", "HEAD~9", "HEAD^3", "side^2", "HEAD~x", "HEAD^^x", "main@{1}", "HEAD:a.md",
		"config", "index", "../HEAD", "refs/../HEAD", "/HEAD", "refs/heads/", "a b", tree, tree[:8], "abc",
		"0000000000000000000000000000000000000000", "HEAD~99999999999999999999",
	} {
		t.Run(rev, func(t *testing.T) {
			if c, err := r.Resolve(rev); !errors.Is(err, ErrNotFound) {
				t.Errorf("Resolve(%q) = %v, %v; want ErrNotFound", rev, c.Hash, err)
			}
		})
	}
}

// collidingObjects finds commit contents whose hashes share their first
// four hex digits, and a blob that shares them with a third commit.
func collidingObjects(t *testing.T) (c1, c2, c3, blob []byte) {
	t.Helper()
	commit := func(i int) []byte {
		return fmt.Appendf(nil, "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"+
			"author A <a@x> 0 +0000\ncommitter A <a@x> 0 +0000\n\nmessage %d\n", i)
	}
	seen := map[string]int{}
	for i := 0; c1 == nil; i++ {
		p := plumbing.ComputeHash(plumbing.CommitObject, commit(i)).String()[:4]
		if j, ok := seen[p]; ok {
			c1, c2 = commit(j), commit(i)
			break
		}
		seen[p] = i
	}
	for i := 1 << 20; c3 == nil; i++ {
		if _, ok := seen[plumbing.ComputeHash(plumbing.CommitObject, commit(i)).String()[:4]]; !ok {
			c3 = commit(i)
		}
	}
	want := plumbing.ComputeHash(plumbing.CommitObject, c3).String()[:4]
	for i := 0; ; i++ {
		b := fmt.Appendf(nil, "blob %d\n", i)
		if plumbing.ComputeHash(plumbing.BlobObject, b).String()[:4] == want {
			return c1, c2, c3, b
		}
	}
}

func TestResolveAmbiguous(t *testing.T) {
	requireGit(t)
	r, _ := newOwn(t)
	c1, c2, c3, blob := collidingObjects(t)
	var hashes []string
	for _, o := range []struct {
		t    plumbing.ObjectType
		data []byte
	}{{plumbing.CommitObject, c1}, {plumbing.CommitObject, c2}, {plumbing.CommitObject, c3}, {plumbing.BlobObject, blob}} {
		h, err := r.storeObject(o.t, o.data)
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, h.String())
	}
	_, err := r.Resolve(hashes[0][:4])
	if !errors.Is(err, errAmbiguous) || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "more than one commit") {
		t.Errorf("Resolve of a prefix two commits share: %v; want an ambiguity error", err)
	}
	n := 4
	for hashes[0][:n] == hashes[1][:n] {
		n++
	}
	for i, prefix := range map[int]string{0: hashes[0][:n+1], 1: hashes[1][:n+1], 2: hashes[2][:4]} {
		got, err := r.Resolve(prefix)
		if err != nil || got.Hash != hashes[i] {
			t.Errorf("Resolve(%s) = %s, %v; want %s", prefix, got.Hash, err, hashes[i])
		}
	}
}

func TestParseRevision(t *testing.T) {
	for _, tc := range []struct {
		rev   string
		base  string
		steps []revStep
		bad   bool
	}{
		{rev: "HEAD", base: "HEAD"},
		{rev: "HEAD~", base: "HEAD", steps: []revStep{{'~', 1}}},
		{rev: "main~12^2^", base: "main", steps: []revStep{{'~', 12}, {'^', 2}, {'^', 1}}},
		{rev: "v1.0^0", base: "v1.0", steps: []revStep{{'^', 0}}},
		{rev: "feature/x~2", base: "feature/x", steps: []revStep{{'~', 2}}},
		{rev: "", bad: true},
		{rev: "~1", bad: true},
		{rev: "HEAD~1x", bad: true},
		{rev: "HEAD^{commit}", bad: true},
		{rev: "a..b", bad: true},
		{rev: "HEAD@{2}", bad: true},
		{rev: "HEAD:file", bad: true},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			base, steps, err := parseRevision(tc.rev)
			if tc.bad {
				if err == nil {
					t.Errorf("parseRevision(%q) = %q, %v; want an error", tc.rev, base, steps)
				}
				return
			}
			if err != nil || base != tc.base || !cmp.Equal(steps, tc.steps, cmp.AllowUnexported(revStep{})) {
				t.Errorf("parseRevision(%q) = %q, %v, %v; want %q, %v", tc.rev, base, steps, err, tc.base, tc.steps)
			}
		})
	}
}

func FuzzParseRevision(f *testing.F) {
	for _, s := range []string{"HEAD", "HEAD~2^2", "main^", "v1~", "abc123~1", "a/b^0", "x~99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rev string) {
		base, steps, err := parseRevision(rev)
		if err != nil {
			return
		}
		if !validRefName(base) || strings.ContainsAny(base, "~^") {
			t.Fatalf("parseRevision(%q) gave base %q", rev, base)
		}
		rebuilt := base
		for _, s := range steps {
			if s.n < 0 {
				t.Fatalf("parseRevision(%q) gave a negative step %v", rev, s)
			}
			rebuilt += fmt.Sprintf("%c%d", s.op, s.n)
		}
		base2, steps2, err := parseRevision(rebuilt)
		if err != nil || base2 != base || !cmp.Equal(steps, steps2, cmp.AllowUnexported(revStep{})) {
			t.Fatalf("%q -> %q: %q %v %v", rev, rebuilt, base2, steps2, err)
		}
	})
}
