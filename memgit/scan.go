package memgit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// blob is a file's content address and mode.
type blob struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// Changes are the memory paths whose files differ from HEAD, relative to
// the memory directory and sorted.
type Changes struct {
	Added, Modified, Removed []string
}

// Paths lists every changed path.
func (c Changes) Paths() []string {
	out := append(append(append([]string{}, c.Added...), c.Modified...), c.Removed...)
	sort.Strings(out)
	return out
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool { return len(c.Added)+len(c.Modified)+len(c.Removed) == 0 }

// Summary says what changed in a few words, for a commit message:
// "add a.md, rm b.md" for up to three paths, else counts.
func (c Changes) Summary() string {
	var parts []string
	if len(c.Paths()) <= 3 {
		for _, g := range []struct {
			verb  string
			paths []string
		}{{"add", c.Added}, {"edit", c.Modified}, {"rm", c.Removed}} {
			for _, p := range g.paths {
				parts = append(parts, g.verb+" "+p)
			}
		}
		return strings.Join(parts, ", ")
	}
	for _, g := range []struct {
		n    int
		word string
	}{{len(c.Added), "added"}, {len(c.Modified), "edited"}, {len(c.Removed), "removed"}} {
		if g.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", g.n, g.word))
		}
	}
	return strings.Join(parts, ", ")
}

// Status compares the memory files on disk with HEAD. Private state,
// nested repositories and untracked files the ignore rules exclude are
// left out.
func (r *Repo) Status() (Changes, error) {
	var c Changes
	headFiles := map[string]blob{}
	if _, h, err := r.head(); err == nil && !h.IsZero() {
		if headFiles, err = r.filesAt(h); err != nil {
			return c, err
		}
	}
	disk, err := r.diskFiles(headFiles)
	if err != nil {
		return c, err
	}
	for p, b := range disk {
		old, ok := headFiles[p]
		switch {
		case !ok:
			c.Added = append(c.Added, p)
		case old != b:
			c.Modified = append(c.Modified, p)
		}
	}
	for p := range headFiles {
		if _, ok := disk[p]; !ok {
			c.Removed = append(c.Removed, p)
		}
	}
	sort.Strings(c.Added)
	sort.Strings(c.Modified)
	sort.Strings(c.Removed)
	return c, nil
}

// CommitAll commits every memory path that differs from HEAD (see
// Status). msg "" makes the message from the changes. It returns the
// changes it committed.
func (r *Repo) CommitAll(msg string) (Result, Changes, error) {
	c, err := r.Status()
	if err != nil || c.Empty() {
		return Result{}, c, err
	}
	if msg == "" {
		msg = c.Summary()
	}
	res, err := r.Commit(c.Paths(), msg)
	return res, c, err
}

// filesAt lists the memory files at a commit, relative to the memory
// directory. A memory directory that did not exist then has none.
func (r *Repo) filesAt(commit plumbing.Hash) (map[string]blob, error) {
	out := map[string]blob{}
	c, err := object.GetCommit(r.st, commit)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", commit, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", commit, err)
	}
	if r.prefix != "" {
		if t, err = t.Tree(r.prefix); errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("read %s at %s: %w", r.prefix, commit, err)
		}
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("walk tree of %s: %w", commit, err)
		}
		if e.Mode == filemode.Dir || e.Mode == filemode.Submodule || Private(name) {
			continue
		}
		out[name] = blob{hash: e.Hash, mode: e.Mode}
	}
}

// diskFiles hashes the memory files on disk, relative to the memory
// directory. Untracked files (not in tracked) that the ignore rules
// exclude are left out, as git leaves them out.
func (r *Repo) diskFiles(tracked map[string]blob) (map[string]blob, error) {
	ignored := r.ignoreMatcher()
	out := map[string]blob{}
	err := filepath.WalkDir(r.memDir, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r.memDir, abs)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			if rel == ".git" || strings.HasPrefix(rel, ".memdir/") || ignored(rel, true) {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
				return filepath.SkipDir // a repository of its own
			}
			return nil
		}
		if _, ok := tracked[rel]; !ok && (Private(rel) || ignored(rel, false)) {
			return nil
		}
		b, err := hashFile(abs, d)
		if err != nil {
			return err
		}
		out[rel] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", r.memDir, err)
	}
	return out, nil
}

// hashFile is the blob a file would be stored as.
func hashFile(abs string, d fs.DirEntry) (blob, error) {
	mode := filemode.Regular
	var data []byte
	var err error
	if d.Type()&fs.ModeSymlink != 0 {
		var target string
		target, err = os.Readlink(abs)
		data, mode = []byte(target), filemode.Symlink
	} else {
		data, err = os.ReadFile(abs)
		if fi, serr := d.Info(); serr == nil && fi.Mode()&0o111 != 0 {
			mode = filemode.Executable
		}
	}
	if err != nil {
		return blob{}, err
	}
	return blob{hash: plumbing.ComputeHash(plumbing.BlobObject, data), mode: mode}, nil
}

// ignoreMatcher reports whether a memory path is ignored by git's rules:
// info/exclude, the .gitignore files from the top of the work tree down
// to the memory directory, and those inside it.
func (r *Repo) ignoreMatcher() func(rel string, dir bool) bool {
	ps := readPatternFile(filepath.Join(r.gitDir, "info", "exclude"), nil)
	var domain []string
	if r.prefix != "" {
		parts := strings.Split(r.prefix, "/")
		for i := range parts {
			domain = parts[:i]
			ps = append(ps, readPatternFile(filepath.Join(r.top, filepath.Join(domain...), IgnoreFile), domain)...)
		}
		domain = parts
	}
	inside, _ := gitignore.ReadPatterns(osfs.New(r.top), domain)
	ps = append(ps, inside...)
	m := gitignore.NewMatcher(ps)
	return func(rel string, dir bool) bool {
		return m.Match(strings.Split(r.repoPath(rel), "/"), dir)
	}
}

// readPatternFile reads one ignore file's patterns; a missing file has none.
func readPatternFile(name string, domain []string) []gitignore.Pattern {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
}
