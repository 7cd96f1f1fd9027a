package memgit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/memdir"
)

// MessagePrefix starts every commit memdir makes in a project's
// repository, so that a person reading the project's log knows which
// commits are memory.
const MessagePrefix = "memdir: "

// Policy is when changes to memory are committed, from the settings.
type Policy struct {
	// Git is the git setting: memory is a repository of its own, made on
	// the first change if it is not one yet. It never commits into a
	// project's repository.
	Git bool
	// AutoCommit is git.autocommit: every change is committed, also into
	// the project's repository when memory sits in its work tree.
	AutoCommit bool
}

// Versioned reports whether changes to the memory directory memDir are
// committed under p: it is a repository of its own, or p asks for
// commits. It costs one stat when none of that holds.
func (p Policy) Versioned(memDir string) bool {
	return p.Git || p.AutoCommit || OwnRepo(memDir)
}

// Message is msg as this repository records it: prefixed with
// MessagePrefix in a project's repository.
func (r *Repo) Message(msg string) string {
	if r.Own() {
		return msg
	}
	return MessagePrefix + msg
}

// Record commits one change to memory (paths, relative to memDir, and a
// message saying what changed) as p says. It runs under the store's lock.
// A refusal (detached HEAD, a merge in progress...) is a *RefusedError:
// the change itself is done, and `memdir commit` can record it later.
func (p Policy) Record(memDir string, opts Options, paths []string, msg string) error {
	r, err := Open(memDir, opts)
	switch {
	case errors.Is(err, ErrNoRepo) && p.Git:
		// The first change makes the repository and records everything.
		if r, _, err = Init(memDir, opts); err != nil {
			return err
		}
		_, _, err = r.CommitAll(msg)
		return err
	case errors.Is(err, ErrNoRepo):
		return nil
	case err != nil:
		return err
	}
	if !r.Own() {
		if !p.AutoCommit {
			return nil // the git setting never commits into a project's repository
		}
		created, err := EnsureIgnore(memDir)
		if err != nil {
			return err
		}
		if created {
			paths = append(paths, IgnoreFile)
		}
	}
	_, err = r.Commit(paths, r.Message(msg))
	return err
}

// TopicAt resolves what a person typed to a topic file that may no longer
// exist: a current topic of d, a topic file name, or a topic of that name
// among the files at rev ("" means the newest commit of memory's history
// that had one). A name that matches nothing, or several files, is an
// *memdir.InputError.
func (r *Repo) TopicAt(d *memdir.Dir, ref, rev string) (string, error) {
	file, err := d.Find(ref)
	if err == nil || !errors.Is(err, memdir.ErrNotFound) {
		return file, err
	}
	if strings.HasSuffix(ref, ".md") && memdir.IsTopicFile(ref) {
		return ref, nil
	}
	revs := []string{rev}
	if rev == "" {
		commits, err := r.History("", 0)
		if err != nil {
			return "", err
		}
		revs = revs[:0]
		for _, c := range commits {
			revs = append(revs, c.Hash)
		}
	}
	slug := memdir.Slugify(ref)
	for _, rv := range revs {
		hits, err := r.topicsNamed(rv, slug)
		if err != nil {
			return "", err
		}
		switch len(hits) {
		case 0:
			continue
		case 1:
			return hits[0], nil
		}
		return "", &memdir.InputError{Msg: fmt.Sprintf("%q matches %s at %.7s: name the file instead", ref, strings.Join(hits, ", "), rv)}
	}
	where := "in memory's history"
	if rev != "" {
		where = "at " + rev
	}
	return "", &memdir.InputError{Msg: fmt.Sprintf("no topic named %q now or %s: `memdir history` shows what changed", ref, where)}
}

// topicsNamed lists the topic files at rev whose name ends in slug.
func (r *Repo) topicsNamed(rev, slug string) ([]string, error) {
	files, err := r.FilesAt(rev)
	if err != nil {
		return nil, err
	}
	var hits []string
	for _, f := range files {
		if !strings.Contains(f, "/") && memdir.IsTopicFile(f) && (strings.HasSuffix(f, "_"+slug+".md") || f == slug+".md") {
			hits = append(hits, f)
		}
	}
	return hits, nil
}
