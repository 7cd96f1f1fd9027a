package memdir

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/typesx"
)

// Change is one completed change to memory: the paths it wrote or removed
// (relative to the memory directory, slash-separated) and a message that
// says what changed, such as "add feedback_testing_policy.md".
type Change struct {
	Paths   []string
	Message string
}

// Committer records a completed change to memory: a git commit, in
// memdir's git support. The store calls it while it still holds the lock,
// so it sees the files exactly as the change left them.
type Committer interface {
	Commit(Change) error
}

// CommitFunc is a function that is a Committer.
type CommitFunc func(Change) error

// Commit calls f.
func (f CommitFunc) Commit(c Change) error { return f(c) }

// Changed passes a change to the committer the directory was opened with,
// if any. The store calls it for each of its own changes; packages that
// write memory under Lock (dream, the watcher) call it the same way.
func (d *Dir) Changed(c Change) error {
	if d.committer == nil || len(c.Paths) == 0 {
		return nil
	}
	if err := d.committer.Commit(c); err != nil {
		return fmt.Errorf("after %s: %w", c.Message, err)
	}
	return nil
}

// Lock takes the directory's sidecar lock for a piece of work named what.
// Packages that write memory (dream, the watcher) hold it around every
// read-modify-write, as the store does.
func (d *Dir) Lock(what string) (*Lock, error) { return d.lock(what) }

// indexPaths lists MEMORY.md and, in name order, every overflow index
// present. It looks up the few names an overflow index can have rather
// than list a directory of thousands of topics.
func (d *Dir) indexPaths() []string {
	paths := []string{IndexFile}
	for _, t := range typesx.Types {
		name := index.OverflowFile(t)
		if _, err := os.Lstat(filepath.Join(d.Path, name)); err == nil {
			paths = append(paths, name)
		}
	}
	slices.Sort(paths[1:])
	return paths
}

// OverflowFiles returns the overflow indexes in the memory directory
// (MEMORY-<type>.md, written by Fit and by a Rebuild past the caps), in
// name order.
func (d *Dir) OverflowFiles() []string { return d.indexPaths()[1:] }

// rel makes a path inside the memory directory relative and slash-separated.
func (d *Dir) rel(path string) string {
	r, err := filepath.Rel(d.Path, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}
