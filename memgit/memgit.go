// Package memgit keeps memory in git. It never starts a git process: it
// reads and writes git's files itself, through go-git's plumbing where
// that plumbing does the job within memdir's budgets. A memory directory
// is versioned one of two ways:
//
//   - as a repository of its own (`memdir init --git`): every change to
//     memory becomes one commit;
//   - inside the project's work tree (the dir setting, e.g. .memdir/):
//     `memdir commit` commits the memory paths and nothing else to the
//     current branch, leaving the person's other staged and unstaged
//     changes exactly as they were.
//
// # What go-git does
//
// Objects go through go-git's object storage (storage/filesystem): loose
// objects are written zlib-compressed under a temporary name and renamed
// into place, and read loose or packed, looking again after a miss
// (store.go, objects.go). Commits are encoded by plumbing/object; packs
// are written by its packfile encoder and their indexes by its idxfile
// writer (pack.go, gc.go). The version 4 index, and
// the index Tracked reads, go through plumbing/format/index; ignore rules
// through its gitignore matcher; diffs through its unified encoder.
// canonical finds the git dirs (linked worktrees, separate git dirs,
// submodules) and reads the config with go-git's decoder.
//
// # What memgit does by hand, and why
//
//   - The index of a version 2 or 3 repository (rawindex.go) is spliced
//     as bytes: the entries of the committed paths are replaced, every
//     other entry is copied byte for byte. go-git's codec decodes and
//     re-encodes a 10,000-entry index in 57 to 125 ms where the splice
//     takes 1.4 to 6 ms (same loaded machine), against a budget of git's
//     own add + commit; and its encoder would drop the person's
//     assume-unchanged bits and sorts entries with an unstable sort, which
//     can reorder the stages of a conflicted path.
//   - Trees are edited as bytes along the changed paths (treesplice.go):
//     a commit rewrites only the trees on those paths, and copies the
//     other records of a 10,000-entry root tree through: 0.4 to 0.5 ms
//     where plumbing/object's Tree, decoding every entry and encoding it
//     again, takes 15 to 25 ms (same machine).
//   - What changed is found the way git finds it, from the index's stat
//     data under git's racy-git rules (statcache.go, walk.go), so
//     unchanged files are never read.
//   - Locks and refs follow git's lock-file protocol, which go-git's
//     reference storage does not (locks.go, refs.go): O_EXCL *.lock files
//     whose content is what git expects, renamed into place, with
//     reflogs. Each lock memdir takes has a side record of its holder
//     (PID and start time, package proc) so that a lock a killed memdir
//     left is removed by the next one; any other lock is never touched,
//     and ForeignLocks reports it with the command that clears it.
//
// # What go-git costs
//
// At 10,000 topics a commit writes a root tree of about 600 KB. go-git
// compresses it at zlib's default level (git writes loose objects at
// level 1), which made `memdir commit` of two edited topics take about
// 50 ms more CPU in a repository of its own than the uncompressed
// objects memgit wrote before (scripts/bench-git commit, one loaded
// 2-core machine: 254 ms against 204 ms, git add + commit 225 ms). A
// writer of its own at level 1 measured only about twice as fast on
// such a tree, so the store stays go-git's.
//
// A pack's index is built by memgit (indexpack.go), streaming the pack
// twice and keeping a resolved object only while deltas still need it.
// go-git's PackfileWriter indexes a pack with packfile.Parser, which keeps
// every object it resolves: in a year of daily commits at 10,000 topics
// (scripts/bench-git year), every commit from about day 200 peaked at
// 1.1 to 1.2 GB and took 7 to 34 s with it.
//
// # What it refuses
//
// It refuses rather than risk a repository: a repository format or
// extension it does not know, a split or sparse index, an index
// extension git says must not be dropped, a detached HEAD, a merge, rebase, cherry-pick
// or revert in progress, conflicts, a memory path outside a sparse
// checkout, a lock held by someone else. A shallow clone's boundary
// commits are roots (shallow.go).
//
// Callers hold memdir's sidecar lock around every write, as the store
// does when it calls its committer; packing (gc.go) runs inside a
// commit, under that lock, in a repository of its own only.
package memgit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
)

// Errors callers can match.
var (
	// ErrNoRepo means the memory directory is in no git work tree.
	ErrNoRepo = errors.New("not in a git repository")
	// ErrNotFound means a file or revision does not exist.
	ErrNotFound = errors.New("not found")
)

// RefusedError says why memgit will not commit right now (a detached
// HEAD, a merge or rebase in progress, a conflict, a held index.lock).
// Nothing was written.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "not committing memory: " + e.Reason }

// Options are what a Repo needs from its caller.
type Options struct {
	// Now is the clock for commit times; time.Now when nil.
	Now func() time.Time
	// Getenv reads GIT_AUTHOR_* and GIT_COMMITTER_*; os.Getenv when nil.
	Getenv func(string) string
}

// Repo is the git repository that holds a memory directory.
type Repo struct {
	st     objectStore
	dirs   canonical.GitDirs
	top    string // top of the work tree, symlinks resolved
	gitDir string // this work tree's own git dir (index, MERGE_HEAD)
	common string // the git dir shared by every worktree (objects, refs)
	memDir string // the memory directory, symlinks resolved
	prefix string // memDir relative to top, slash-separated; "" when own
	opts   Options

	written int64 // bytes of loose objects written, for the packing policy (gc.go)

	shallowOnce sync.Once
	shallowSet  map[plumbing.Hash]bool // commits at a shallow clone's boundary
}

// IgnoreFile is the name of the ignore file memgit keeps in a memory
// directory.
const IgnoreFile = ".gitignore"

// Ignore is the .gitignore memgit writes: memdir's private state (the
// lock, edit drafts, the recorded root, dream's lock, state and reports,
// temp files) and editor leftovers never enter history. .memdir/mode
// does: it is a property of the memory, not of one machine.
const Ignore = `# memdir's private state: never committed
/.memdir/*
!/.memdir/mode
/.consolidate-lock
.memdir-tmp-*
# editor leftovers
*.swp
*.swo
*~
.#*
`

// Private reports whether a path relative to the memory directory is
// memdir's private state or an editor leftover, which memgit never
// commits. It agrees with Ignore.
func Private(rel string) bool {
	rel = strings.TrimPrefix(filepath.ToSlash(rel), "./")
	first, rest, _ := strings.Cut(rel, "/")
	base := path.Base(rel)
	switch {
	case first == ".git", rel == ".consolidate-lock":
		return true
	case first == ".memdir":
		return rest != "mode"
	case strings.HasPrefix(base, ".memdir-tmp-"), strings.HasPrefix(base, ".#"),
		strings.HasSuffix(base, ".swp"), strings.HasSuffix(base, ".swo"), strings.HasSuffix(base, "~"):
		return true
	}
	return false
}

// OwnRepo reports whether the memory directory is a git repository of
// its own (it holds a .git), without opening it.
func OwnRepo(memDir string) bool {
	_, err := os.Lstat(filepath.Join(memDir, gitDirName))
	return err == nil
}

// Open returns the repository whose work tree holds the memory directory:
// its own, or the project's around it. It returns ErrNoRepo when there is
// none.
func Open(memDir string, opts Options) (*Repo, error) {
	mem, err := resolve(memDir)
	if err != nil {
		return nil, err
	}
	dirs, found, err := canonical.FindGitDirs(mem)
	if !found && err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", memDir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open git repository of %s: %w", memDir, err)
	}
	st, err := openStorage(dirs)
	if errors.Is(err, ErrNoRepo) {
		return nil, fmt.Errorf("%s: %w", memDir, ErrNoRepo)
	}
	if err != nil {
		return nil, fmt.Errorf("open git repository of %s: %w", memDir, err)
	}
	top, err := resolve(dirs.Top)
	if err != nil {
		return nil, err
	}
	prefix, err := filepath.Rel(top, mem)
	if err != nil || prefix == ".." || strings.HasPrefix(prefix, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is outside the work tree %s: %w", memDir, top, ErrNoRepo)
	}
	r := &Repo{st: objectStore{st}, dirs: dirs, top: top, gitDir: dirs.GitDir, common: dirs.CommonDir, memDir: mem, opts: opts}
	if prefix != "." {
		r.prefix = filepath.ToSlash(prefix)
	}
	return r, nil
}

// Init makes the memory directory a git repository of its own, on branch
// main, with memgit's .gitignore, and returns it. It creates nothing when
// the directory already is one, and refuses when the directory sits in
// another repository's work tree (commit memory with that project
// instead). Init makes no commit: CommitAll records what is there.
func Init(memDir string, opts Options) (*Repo, bool, error) {
	created := false
	if !OwnRepo(memDir) {
		if r, err := Open(memDir, opts); err == nil {
			return nil, false, &RefusedError{Reason: fmt.Sprintf("%s is inside the work tree of %s; commit memory with that project (memdir commit, or the git.autocommit setting) instead of a repository of its own", memDir, r.top)}
		}
		if err := initGitDir(memDir); err != nil {
			return nil, false, fmt.Errorf("init git repository in %s: %w", memDir, err)
		}
		created = true
	}
	if _, err := EnsureIgnore(memDir); err != nil {
		return nil, false, err
	}
	r, err := Open(memDir, opts)
	return r, created, err
}

// EnsureIgnore writes memgit's .gitignore into the memory directory when
// it has none, and reports whether it wrote one. An existing file is the
// person's and is left alone.
func EnsureIgnore(memDir string) (bool, error) {
	p := filepath.Join(memDir, IgnoreFile)
	if _, err := os.Lstat(p); err == nil {
		return false, nil
	}
	if err := atomicfile.WriteFile(p, []byte(Ignore), 0o644); err != nil {
		return false, fmt.Errorf("write %s: %w", p, err)
	}
	return true, nil
}

// Own reports whether the repository is the memory directory's own.
func (r *Repo) Own() bool { return r.prefix == "" }

// Top is the top of the repository's work tree.
func (r *Repo) Top() string { return r.top }

// Prefix is the memory directory relative to the top of the work tree,
// slash-separated, or "" when the repository is the memory directory's
// own.
func (r *Repo) Prefix() string { return r.prefix }

// repoPath turns a path relative to the memory directory into one
// relative to the top of the work tree.
func (r *Repo) repoPath(rel string) string {
	rel = path.Clean(filepath.ToSlash(rel))
	if r.prefix == "" {
		return rel
	}
	return r.prefix + "/" + rel
}

// memPath turns a repository path under the memory directory back into
// one relative to the memory directory.
func (r *Repo) memPath(p string) (string, bool) {
	if r.prefix == "" {
		return p, true
	}
	rest, ok := strings.CutPrefix(p, r.prefix+"/")
	return rest, ok
}

func (r *Repo) now() time.Time {
	if r.opts.Now != nil {
		return r.opts.Now()
	}
	return time.Now()
}

func (r *Repo) getenv(k string) string {
	if r.opts.Getenv != nil {
		return r.opts.Getenv(k)
	}
	return os.Getenv(k)
}

// resolve makes a path absolute with symlinks resolved, for as much of it
// as exists.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	var missing []string
	for cur := abs; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{real}, missing...)...), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		missing = append([]string{filepath.Base(cur)}, missing...)
		cur = parent
	}
}
