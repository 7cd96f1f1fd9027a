package memgit

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCommit records one topic and the index in a memory directory
// of 10 and of 10,000 topic files: the cost should barely move.
func BenchmarkCommit(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("topics=%d", n), func(b *testing.B) {
			dir, ix := benchMemory(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				holdPacking(b, dir)
				write(b, filepath.Join(dir, "user_new.md"), fmt.Sprintf("new %d\n", i))
				write(b, filepath.Join(dir, "MEMORY.md"), ix+fmt.Sprintf("- [New](user_new.md) — %d\n", i))
				b.StartTimer()
				// Open afresh, as every memdir process does.
				r, err := Open(dir, testOpts)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.Commit([]string{"user_new.md", "MEMORY.md"}, "add user_new.md"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchMemory writes a memory directory of n topic files and its index
// and commits it as a repository of its own.
func benchMemory(b *testing.B, n int) (string, string) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "memory")
	var ix strings.Builder
	for i := range n {
		name := fmt.Sprintf("project_topic_%05d.md", i)
		write(b, filepath.Join(dir, name), fmt.Sprintf("---\nname: Topic %d\n---\n\nbody %d\n", i, i))
		fmt.Fprintf(&ix, "- [Topic %d](%s) — hook %d\n", i, name, i)
	}
	write(b, filepath.Join(dir, "MEMORY.md"), ix.String())
	r, _, err := Init(dir, testOpts)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := r.CommitAll("init"); err != nil {
		b.Fatal(err)
	}
	return dir, ix.String()
}

// BenchmarkCommitAll is `memdir commit` at 10,000 topics after three
// topics changed: open, compare memory with HEAD, commit. Compare
// BenchmarkCommitAllGit, git doing the same; scripts/bench-git compares
// the whole processes.
func BenchmarkCommitAll(b *testing.B) {
	dir, _ := benchMemory(b, 10_000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		holdPacking(b, dir)
		editTopics(b, dir, i)
		b.StartTimer()
		r, err := Open(dir, testOpts)
		if err != nil {
			b.Fatal(err)
		}
		if res, _, err := r.CommitAll(""); err != nil || !res.Committed() {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkCommitAllGit is BenchmarkCommitAll's commit made by git add -A
// and git commit, in a copy of the same repository.
func BenchmarkCommitAllGit(b *testing.B) {
	requireGit(b)
	dir, _ := benchMemory(b, 10_000)
	for i := -2; i < b.N; i++ { // two untimed commits first: git's index gets its cache tree
		if i == 0 {
			b.ResetTimer()
		}
		b.StopTimer()
		editTopics(b, dir, i)
		b.StartTimer()
		if out, err := gitCmd(dir, "add", "-A").CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
		if out, err := gitCmd(dir, "commit", "-q", "-m", "edit").CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
	}
}

// holdPacking clears the tally of loose bytes, as if the commits were
// spread out in time, so that the commit benchmarks time commits alone:
// packing's cost is a year's (scripts/bench-git).
func holdPacking(b *testing.B, dir string) {
	r, err := Open(dir, testOpts)
	if err == nil {
		err = r.writePackState(packState{last: testOpts.Now()})
	}
	if err != nil {
		b.Fatal(err)
	}
}

// editTopics changes three topics, as a person or an agent would.
func editTopics(b *testing.B, dir string, i int) {
	for _, k := range []int{17, 4242, 9001} {
		write(b, filepath.Join(dir, fmt.Sprintf("project_topic_%05d.md", k)), fmt.Sprintf("changed %d\n", i))
	}
}
