package memgit

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit is one entry of memory's history.
type Commit struct {
	Hash    string    `json:"hash"`
	Short   string    `json:"short"`
	When    time.Time `json:"time"`
	Author  string    `json:"author"`
	Subject string    `json:"subject"`
}

func commitOf(c *object.Commit) Commit {
	subject, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	return Commit{Hash: c.Hash.String(), Short: c.Hash.String()[:7], When: c.Committer.When,
		Author: c.Author.Name, Subject: subject}
}

// History lists the commits reachable from HEAD that changed memory, or
// only the file given (relative to the memory directory), newest first:
// parents after children, first parents first. A merge is listed only
// when it differs from every parent. limit 0 means no limit.
func (r *Repo) History(file string, limit int) ([]Commit, error) {
	_, tip, err := r.head()
	var refused *RefusedError
	if errors.As(err, &refused) {
		h, herr := r.st.Reference(plumbing.HEAD)
		if herr != nil {
			return nil, fmt.Errorf("read HEAD: %w", herr)
		}
		tip, err = h.Hash(), nil
	}
	if err != nil || tip.IsZero() {
		return nil, err
	}
	p := r.prefix
	if file != "" {
		p = r.repoPath(file)
	}
	start, err := object.GetCommit(r.st, tip)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", tip, err)
	}
	at := map[plumbing.Hash]plumbing.Hash{}
	hashAt := func(c *object.Commit) plumbing.Hash {
		if h, ok := at[c.Hash]; ok {
			return h
		}
		h := r.pathHash(c, p)
		at[c.Hash] = h
		return h
	}
	var out []Commit
	err = r.preorder(start, func(c *object.Commit) (bool, error) {
		changed, err := r.touches(c, hashAt)
		if err != nil || !changed {
			return true, err
		}
		out = append(out, commitOf(c))
		return limit <= 0 || len(out) < limit, nil
	})
	return out, err
}

// preorder visits the commits reachable from start, each once, children
// before parents and first parents first, until visit says stop. A
// shallow clone's boundary commits are roots.
func (r *Repo) preorder(start *object.Commit, visit func(*object.Commit) (bool, error)) error {
	seen := map[plumbing.Hash]bool{}
	stack := []*object.Commit{start}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c.Hash] {
			continue
		}
		seen[c.Hash] = true
		if more, err := visit(c); err != nil || !more {
			return err
		}
		ps := r.parents(c)
		for i := len(ps) - 1; i >= 0; i-- {
			if seen[ps[i]] {
				continue
			}
			p, err := object.GetCommit(r.st, ps[i])
			if err != nil {
				return fmt.Errorf("read commit %s: %w", ps[i], err)
			}
			stack = append(stack, p)
		}
	}
	return nil
}

// touches reports whether a commit changed the path hashAt looks at.
func (r *Repo) touches(c *object.Commit, hashAt func(*object.Commit) plumbing.Hash) (bool, error) {
	mine := hashAt(c)
	ps := r.parents(c)
	if len(ps) == 0 {
		return !mine.IsZero(), nil
	}
	for _, h := range ps {
		p, err := object.GetCommit(r.st, h)
		if err != nil {
			return false, fmt.Errorf("read commit %s: %w", h, err)
		}
		if hashAt(p) == mine {
			return false, nil
		}
	}
	return true, nil
}

// pathHash is the hash of the tree or blob at a repository path in a
// commit ("" is the whole tree), or the zero hash when it is absent.
func (r *Repo) pathHash(c *object.Commit, p string) plumbing.Hash {
	t, err := c.Tree()
	if err != nil {
		return plumbing.ZeroHash
	}
	if p == "" {
		return t.Hash
	}
	e, err := t.FindEntry(p)
	if err != nil {
		return plumbing.ZeroHash
	}
	return e.Hash
}

// Resolve returns the commit a revision names (HEAD, HEAD~2, a branch, a
// tag, a full or abbreviated hash).
func (r *Repo) Resolve(rev string) (Commit, error) {
	c, err := r.commit(rev)
	if err != nil {
		return Commit{}, err
	}
	return commitOf(c), nil
}

func (r *Repo) commit(rev string) (*object.Commit, error) {
	c, err := r.resolveRevision(rev)
	var refused *RefusedError
	if errors.As(err, &refused) {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	if errors.Is(err, errAmbiguous) {
		return nil, fmt.Errorf("revision %q: %w", rev, err)
	}
	if err != nil {
		return nil, fmt.Errorf("unknown revision %q: %w", rev, ErrNotFound)
	}
	return c, nil
}

// FileAt returns a memory file (relative to the memory directory) as it
// was at a revision.
func (r *Repo) FileAt(rev, file string) ([]byte, error) {
	c, err := r.commit(rev)
	if err != nil {
		return nil, err
	}
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", rev, err)
	}
	f, err := t.File(r.repoPath(file))
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", file, rev, ErrNotFound)
	}
	rd, err := f.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", file, rev, err)
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// FilesAt lists the memory files at a revision, relative to the memory
// directory and sorted.
func (r *Repo) FilesAt(rev string) ([]string, error) {
	c, err := r.commit(rev)
	if err != nil {
		return nil, err
	}
	files, err := r.filesAt(c.Hash)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(files))
	for f := range files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out, nil
}
