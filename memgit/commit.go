package memgit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/memdir/memdir/secrets"
)

// Result is what a commit recorded.
type Result struct {
	// Hash is the new commit, or the zero hash when the paths were
	// already as HEAD has them and nothing was committed.
	Hash plumbing.Hash
	// Branch is the branch the commit went to, such as "main".
	Branch string
	// Paths are the memory paths given, relative to the memory directory.
	Paths []string
}

// Committed reports whether a commit was made.
func (res Result) Committed() bool { return !res.Hash.IsZero() }

// Commit records the given paths (relative to the memory directory) as
// they are on disk now, a missing file as removed, in one commit on the
// current branch with message msg. Nothing else is committed: the new
// tree is HEAD's tree with only those paths changed, and only their index
// entries are updated, so other staged and unstaged changes stay as they
// were. Private state is skipped. It refuses (RefusedError) on a detached
// HEAD, during a merge, rebase, cherry-pick or revert, when a path has
// conflicts and when git's index.lock is held.
func (r *Repo) Commit(paths []string, msg string) (Result, error) {
	res := Result{}
	want := map[string]bool{}
	for _, p := range paths {
		p = path.Clean(filepath.ToSlash(p))
		if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) || Private(p) {
			continue
		}
		if !want[r.repoPath(p)] {
			res.Paths = append(res.Paths, p)
		}
		want[r.repoPath(p)] = true
	}
	if len(want) == 0 {
		return res, nil
	}
	// In progress first: a rebase detaches HEAD, and should be named.
	if err := r.checkInProgress(); err != nil {
		return res, err
	}
	if _, _, err := r.head(); err != nil {
		return res, err // refused before any lock is taken
	}
	lk, err := r.lockIndex()
	if err != nil {
		return res, err
	}
	defer lk.release()
	// HEAD.lock keeps a git switch or checkout from moving HEAD between
	// here and the branch update; HEAD is read again under it.
	headLock := newLock(r.gitDir, "HEAD.lock")
	if err := headLock.lock(); err != nil {
		return res, err
	}
	defer headLock.release()
	hook("head-locked")
	branch, parent, err := r.head()
	if err != nil {
		return res, err
	}
	res.Branch = branch.Short()
	idx, err := r.readIndex(want)
	if err != nil {
		return res, err
	}
	if c := idx.conflicts(want); len(c) > 0 {
		return res, &RefusedError{Reason: fmt.Sprintf("%s has conflicts: resolve them with git first", strings.Join(c, ", "))}
	}
	if len(idx.skipped) > 0 {
		return res, &RefusedError{Reason: fmt.Sprintf("%s is outside the sparse checkout (skip-worktree), so git would not see it on disk: add the memory directory to it (git sparse-checkout add %s)", strings.Join(idx.skipped, ", "), r.sparsePattern())}
	}
	files, err := r.stage(want)
	if err != nil {
		return res, err
	}
	h, err := r.commitTree(branch, parent, files, msg)
	if err != nil || h.IsZero() {
		return res, err
	}
	res.Hash = h
	if err := writeIndexLock(lk, func(w io.Writer) error { return idx.write(w, files) }); err != nil {
		return res, err
	}
	return res, r.maintain(h.String()[:7])
}

// sparsePattern names the memory directory for git sparse-checkout add.
func (r *Repo) sparsePattern() string {
	if r.prefix == "" {
		return "."
	}
	return r.prefix
}

// stage writes a blob for every wanted path that exists and notes the
// paths that are gone.
func (r *Repo) stage(want map[string]bool) (map[string]staged, error) {
	files := make(map[string]staged, len(want))
	for name := range want {
		abs := filepath.Join(r.top, filepath.FromSlash(name))
		fi, err := os.Lstat(abs)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.IsDir()) {
			files[name] = staged{}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", name, err)
		}
		f, err := r.writeBlob(abs, fi)
		if err != nil {
			return nil, err
		}
		files[name] = f
	}
	return files, nil
}

// writeBlob stores a file (or a symlink's target) as a blob.
func (r *Repo) writeBlob(abs string, fi fs.FileInfo) (staged, error) {
	data, mode, err := readWorkFile(abs, fi)
	if err != nil {
		return staged{}, fmt.Errorf("read %s: %w", abs, err)
	}
	// Checked before the blob is stored: a secret must not reach even
	// .git/objects. (Files of scanLimit bytes and more, MEMORY.md of a
	// huge memory, are not scanned; memdir only writes titles and hooks
	// there.)
	if len(data) < scanLimit && fi.Mode().IsRegular() {
		if found := secrets.Scan(string(data)); len(found) > 0 {
			rel, _ := filepath.Rel(r.top, abs)
			return staged{}, &RefusedError{Reason: fmt.Sprintf("%s:%d looks like it holds a %s; memdir never commits secrets: remove it", filepath.ToSlash(rel), found[0].Line, found[0].Kind)}
		}
	}
	h, err := r.storeObject(plumbing.BlobObject, data)
	if err != nil {
		return staged{}, err
	}
	return staged{hash: h, mode: mode, info: fi}, nil
}

// scanLimit is the size from which a file is committed without a scan
// for secrets.
const scanLimit = 64 << 10

// head returns the branch HEAD points at and its commit (zero on an
// unborn branch). A detached HEAD is refused: a commit there would be
// lost.
func (r *Repo) head() (plumbing.ReferenceName, plumbing.Hash, error) {
	ref, err := r.st.Reference(plumbing.HEAD)
	if err != nil {
		return "", plumbing.ZeroHash, fmt.Errorf("read HEAD: %w", err)
	}
	if ref.Type() != plumbing.SymbolicReference {
		return "", plumbing.ZeroHash, &RefusedError{Reason: "HEAD is detached: check out a branch first (git switch BRANCH)"}
	}
	branch := ref.Target()
	tip, err := r.st.Reference(branch)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return branch, plumbing.ZeroHash, nil
	}
	if err != nil {
		return "", plumbing.ZeroHash, fmt.Errorf("read %s: %w", branch, err)
	}
	return branch, tip.Hash(), nil
}

// checkInProgress refuses while git is in the middle of something that
// the next commit belongs to.
func (r *Repo) checkInProgress() error {
	for _, c := range []struct{ name, what, how string }{
		{"MERGE_HEAD", "a merge", "git merge --continue or --abort"},
		{"rebase-merge", "a rebase", "git rebase --continue or --abort"},
		{"rebase-apply", "a rebase or am", "git rebase --continue or --abort"},
		{"CHERRY_PICK_HEAD", "a cherry-pick", "git cherry-pick --continue or --abort"},
		{"REVERT_HEAD", "a revert", "git revert --continue or --abort"},
	} {
		if _, err := os.Lstat(filepath.Join(r.gitDir, c.name)); err == nil {
			return &RefusedError{Reason: fmt.Sprintf("%s is in progress: finish it first (%s)", c.what, c.how)}
		}
	}
	return nil
}

// commitTree builds the new tree from the parent's plus files, writes the
// commit and moves the branch to it. It returns the zero hash when the
// tree did not change.
func (r *Repo) commitTree(branch plumbing.ReferenceName, parent plumbing.Hash, files map[string]staged, msg string) (plumbing.Hash, error) {
	base := plumbing.ZeroHash
	var parents []plumbing.Hash
	if !parent.IsZero() {
		c, err := object.GetCommit(r.st, parent)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("read HEAD commit: %w", err)
		}
		base, parents = c.TreeHash, []plumbing.Hash{parent}
	}
	tree, err := r.applyTree(base, files)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if tree.IsZero() {
		if tree, err = r.storeObject(plumbing.TreeObject); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	if tree == base {
		return plumbing.ZeroHash, nil
	}
	when := r.now()
	c := &object.Commit{
		Author:       r.signature("AUTHOR", when),
		Committer:    r.signature("COMMITTER", when),
		Message:      strings.TrimRight(msg, "\n") + "\n",
		TreeHash:     tree,
		ParentHashes: parents,
	}
	obj := &plumbing.MemoryObject{}
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode commit: %w", err)
	}
	rd, _ := obj.Reader()
	data, _ := io.ReadAll(rd)
	h, err := r.storeObject(plumbing.CommitObject, data)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if err := r.updateRef(branch, parent, h, reflogMessage(c)); err != nil {
		return plumbing.ZeroHash, err
	}
	return h, nil
}

// applyTree returns the tree base with files applied (a staged file with
// no info removes its path), writing only the trees along changed paths.
// It returns the zero hash for a tree left empty.
func (r *Repo) applyTree(base plumbing.Hash, files map[string]staged) (plumbing.Hash, error) {
	var data []byte
	if !base.IsZero() {
		var err error
		if data, err = r.readObject(plumbing.TreeObject, base); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	changes, err := r.treeChanges(data, files)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	parts, err := spliceTree(data, changes)
	switch {
	case err != nil:
		return plumbing.ZeroHash, fmt.Errorf("tree %s: %w", base, err)
	case len(parts) == 0:
		return plumbing.ZeroHash, nil
	case sameBytes(parts, data):
		return base, nil
	}
	return r.storeObject(plumbing.TreeObject, parts...)
}

// treeChanges works out what becomes of each name of the tree data that
// files touch, writing the subtrees below it.
func (r *Repo) treeChanges(data []byte, files map[string]staged) ([]treeChange, error) {
	changes := map[string]treeChange{}
	sub := map[string]map[string]staged{}
	for p, f := range files {
		name, rest, nested := strings.Cut(p, "/")
		switch {
		case nested:
			if sub[name] == nil {
				sub[name] = map[string]staged{}
			}
			sub[name][rest] = f
		case f.info != nil:
			changes[name] = treeChange{name: []byte(name), mode: f.mode, hash: f.hash}
		default:
			rec, ok, err := findTreeEntry(data, name)
			if err != nil {
				return nil, err
			}
			if ok && !rec.dir() {
				changes[name] = treeChange{name: []byte(name)}
			}
		}
	}
	for name, subFiles := range sub {
		rec, ok, err := findTreeEntry(data, name)
		if err != nil {
			return nil, err
		}
		var b plumbing.Hash
		dir := ok && rec.dir()
		if dir {
			copy(b[:], rec.hash)
		}
		h, err := r.applyTree(b, subFiles)
		switch {
		case err != nil:
			return nil, err
		case !h.IsZero():
			changes[name] = treeChange{name: []byte(name), mode: filemode.Dir, hash: h}
		case dir:
			changes[name] = treeChange{name: []byte(name)}
		}
	}
	out := make([]treeChange, 0, len(changes))
	for _, c := range changes {
		out = append(out, c)
	}
	return out, nil
}
