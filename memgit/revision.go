package memgit

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// errAmbiguous means an abbreviated hash names more than one commit.
var errAmbiguous = errors.New("ambiguous")

// minAbbrev is the shortest abbreviated hash git accepts.
const minAbbrev = 4

// revStep is one ~N or ^N suffix of a revision.
type revStep struct {
	op byte // '~' or '^'
	n  int
}

// parseRevision splits a revision into its base (a name or hash) and its
// ~N and ^N suffixes ("~" and "^" mean 1). It accepts what memdir
// documents: HEAD~2, main^2, v1.0~1^, a hash.
func parseRevision(rev string) (string, []revStep, error) {
	i := strings.IndexAny(rev, "~^")
	if i < 0 {
		i = len(rev)
	}
	base, rest := rev[:i], rev[i:]
	if !validRefName(base) {
		return "", nil, fmt.Errorf("%q is not a revision", rev)
	}
	var steps []revStep
	for rest != "" {
		op := rest[0]
		if op != '~' && op != '^' {
			return "", nil, fmt.Errorf("%q is not a revision", rev)
		}
		rest = rest[1:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n := 1
		if j > 0 {
			v, err := strconv.Atoi(rest[:j])
			if err != nil {
				return "", nil, fmt.Errorf("%q is not a revision: %w", rev, err)
			}
			n = v
		}
		steps = append(steps, revStep{op: op, n: n})
		rest = rest[j:]
	}
	return base, steps, nil
}

// validRefName reports whether a revision's base may be looked up as a
// ref: no empty name, no path tricks, none of the characters git forbids
// in ref names.
func validRefName(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") ||
		strings.Contains(name, "..") || strings.Contains(name, "//") || strings.Contains(name, "@{") {
		return false
	}
	for _, c := range name {
		if c <= ' ' || c == 0x7f || strings.ContainsRune(":?*[\\", c) {
			return false
		}
	}
	return true
}

// resolveRevision returns the commit a revision names. The base is
// looked up as git does: HEAD (or @), a full hash, a ref (as given, then
// under refs/, refs/tags/, refs/heads/, refs/remotes/, and a remote's
// HEAD), then an abbreviated hash of at least four hex digits that names
// exactly one commit. Tags are peeled to their commits.
func (r *Repo) resolveRevision(rev string) (*object.Commit, error) {
	base, steps, err := parseRevision(rev)
	if err != nil {
		return nil, err
	}
	c, err := r.resolveBase(base)
	if err != nil {
		return nil, err
	}
	for _, s := range steps {
		if c, err = r.walk(c, s); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// walk follows one ~N (N first parents) or ^N (the Nth parent; ^0 is the
// commit itself) step. A step past a shallow clone's boundary says so.
func (r *Repo) walk(c *object.Commit, s revStep) (*object.Commit, error) {
	if s.op == '^' {
		if s.n == 0 {
			return c, nil
		}
		if s.n > c.NumParents() {
			return nil, fmt.Errorf("commit %s has no parent %d", c.Hash, s.n)
		}
		if len(r.parents(c)) == 0 {
			return nil, shallowError(c)
		}
		return c.Parent(s.n - 1)
	}
	for range s.n {
		if c.NumParents() == 0 {
			return nil, fmt.Errorf("commit %s has no parent", c.Hash)
		}
		if len(r.parents(c)) == 0 {
			return nil, shallowError(c)
		}
		p, err := c.Parent(0)
		if err != nil {
			return nil, err
		}
		c = p
	}
	return c, nil
}

// resolveBase resolves the part of a revision before any ~ or ^.
func (r *Repo) resolveBase(base string) (*object.Commit, error) {
	if base == "@" {
		base = "HEAD"
	}
	if len(base) == 2*len(plumbing.ZeroHash) && isHex(base) {
		return r.peel(plumbing.NewHash(strings.ToLower(base)))
	}
	for i, rule := range plumbing.RefRevParseRules {
		if i == 0 && !rootRef(base) {
			continue
		}
		ref, err := storer.ResolveReference(r.st, plumbing.ReferenceName(fmt.Sprintf(rule, base)))
		if err == nil {
			return r.peel(ref.Hash())
		}
	}
	if len(base) >= minAbbrev && isHex(base) {
		return r.resolveAbbrev(strings.ToLower(base))
	}
	return nil, fmt.Errorf("no commit, branch or tag %q", base)
}

// resolveAbbrev finds the one commit (or tag of a commit) whose hash
// starts with prefix, among loose objects and every pack.
func (r *Repo) resolveAbbrev(prefix string) (*object.Commit, error) {
	b, err := hex.DecodeString(prefix[:len(prefix)&^1])
	if err != nil {
		return nil, err
	}
	hashes, err := r.st.HashesWithPrefix(b)
	if err != nil {
		return nil, fmt.Errorf("look up %s: %w", prefix, err)
	}
	var found *object.Commit
	for _, h := range hashes {
		if !strings.HasPrefix(h.String(), prefix) {
			continue
		}
		c, err := r.peel(h)
		if err != nil || (found != nil && found.Hash == c.Hash) {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("short hash %s names more than one commit (%s, %s): %w",
				prefix, found.Hash.String()[:12], c.Hash.String()[:12], errAmbiguous)
		}
		found = c
	}
	if found == nil {
		return nil, fmt.Errorf("no commit starts with %s", prefix)
	}
	return found, nil
}

// peel returns the commit an object is or, through annotated tags,
// points to.
func (r *Repo) peel(h plumbing.Hash) (*object.Commit, error) {
	for range 10 {
		obj, err := r.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return nil, fmt.Errorf("read object %s: %w", h, err)
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return object.DecodeCommit(r.st, obj)
		case plumbing.TagObject:
			t, err := object.DecodeTag(r.st, obj)
			if err != nil {
				return nil, fmt.Errorf("read tag %s: %w", h, err)
			}
			h = t.Target
		default:
			return nil, fmt.Errorf("%s is a %s, not a commit", h, obj.Type())
		}
	}
	return nil, fmt.Errorf("tag chain at %s is too long", h)
}

// rootRef reports whether a name is looked up as given, as git does for
// HEAD, ORIG_HEAD and the like and for full ref names, and not for
// "main" (which would read the git dir's file of that name, if any).
func rootRef(name string) bool {
	if strings.HasPrefix(name, "refs/") {
		return true
	}
	for _, c := range name {
		if c != '_' && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
