package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
)

// gitOptions hands memgit the command's clock and environment.
func (a *app) gitOptions() memgit.Options {
	return memgit.Options{Now: a.now, Getenv: a.getenv}
}

// installGitHook makes every change to memory one commit when memory is
// versioned: the memory directory is a repository of its own (memdir
// init --git made it, or the git setting asks for one), or git.autocommit
// is on and the memory directory sits in the project's work tree. It
// costs one stat when none of that holds.
func (a *app) installGitHook(ws *workspace) {
	own := memgit.OwnRepo(ws.loc.Dir)
	gitOn := ws.settings.Bool("git")
	auto := ws.settings.Bool("git.autocommit")
	if !own && !gitOn && !auto {
		return
	}
	ws.dir.OnChange = func(c memdir.Change) error { return a.commitChange(ws, c, gitOn, auto) }
}

// commitChange records one change to memory. It runs under the store's
// lock. A refusal (detached HEAD, merge in progress...) is a warning: the
// change itself is done, and `memdir commit` records it later.
func (a *app) commitChange(ws *workspace, c memdir.Change, gitOn, auto bool) error {
	r, err := memgit.Open(ws.loc.Dir, a.gitOptions())
	switch {
	case errors.Is(err, memgit.ErrNoRepo) && gitOn:
		// The git setting: the first change makes the repository and
		// records everything there is.
		if r, _, err = memgit.Init(ws.loc.Dir, a.gitOptions()); err != nil {
			return a.gitRefused(c.Message, err)
		}
		_, _, err = r.CommitAll(c.Message)
		return a.gitRefused(c.Message, err)
	case errors.Is(err, memgit.ErrNoRepo):
		return nil
	case err != nil:
		return err
	}
	paths, msg := c.Paths, c.Message
	if !r.Own() {
		if !auto {
			return nil // the git setting never commits into a project's repository
		}
		created, err := memgit.EnsureIgnore(ws.loc.Dir)
		if err != nil {
			return err
		}
		if created {
			paths = append(paths, memgit.IgnoreFile)
		}
		msg = "memdir: " + msg
	}
	_, err = r.Commit(paths, msg)
	return a.gitRefused(c.Message, err)
}

// gitRefused turns a refusal into a warning and passes other errors on.
func (a *app) gitRefused(what string, err error) error {
	var refused *memgit.RefusedError
	if errors.As(err, &refused) {
		a.warn("%s is done but not committed: %s; run `memdir commit` once that is sorted", what, refused.Reason)
		return nil
	}
	return err
}

// openGit opens the repository that holds the memory directory, with a
// usage error that says how to get one when there is none.
func (a *app) openGit(ws *workspace) (*memgit.Repo, error) {
	r, err := memgit.Open(ws.loc.Dir, a.gitOptions())
	if errors.Is(err, memgit.ErrNoRepo) {
		return nil, usagef("the memory directory %s is not in a git repository: run `memdir init --git` to give it one of its own, or set dir to a path inside the project (such as .memdir) and use `memdir commit`", ws.loc.Dir)
	}
	return r, err
}

// gitInitCheck refuses `init --git` up front, before anything is
// written, when the memory directory sits in another work tree.
func (a *app) gitInitCheck(ws *workspace) error {
	if memgit.OwnRepo(ws.loc.Dir) {
		return nil
	}
	if r, err := memgit.Open(ws.loc.Dir, a.gitOptions()); err == nil {
		return usagef("the memory directory %s is inside the git work tree %s: commit memory with the project (`memdir commit`, or the git.autocommit setting) instead of giving it a repository of its own", ws.loc.Dir, r.Top())
	}
	return nil
}

// gitInit makes the memory directory its own repository and commits what
// is there, under the lock. It returns a line for the person.
func (a *app) gitInit(ws *workspace) (string, error) {
	lk, err := ws.dir.Lock("init --git")
	if err != nil {
		return "", err
	}
	defer lk.Release()
	r, created, err := memgit.Init(ws.loc.Dir, a.gitOptions())
	if err != nil {
		return "", err
	}
	res, changes, err := r.CommitAll("init")
	if err != nil {
		return "", err
	}
	verb := "already a git repository"
	if created {
		verb = "git repository initialized"
	}
	if res.Committed() {
		return fmt.Sprintf("%s; committed %d files (%s)", verb, len(changes.Paths()), res.Hash.String()[:7]), nil
	}
	return verb, nil
}

// topicAt resolves what a person typed to a topic file that may no longer
// exist: a current topic, a file name, or a topic of that name among the
// files at rev ("" means at the newest commit of memory's history that
// had one).
func topicAt(ws *workspace, r *memgit.Repo, ref, rev string) (string, error) {
	file, err := ws.dir.Find(ref)
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
		files, err := r.FilesAt(rv)
		if err != nil {
			return "", err
		}
		var hits []string
		for _, f := range files {
			if !strings.Contains(f, "/") && memdir.IsTopicFile(f) && (strings.HasSuffix(f, "_"+slug+".md") || f == slug+".md") {
				hits = append(hits, f)
			}
		}
		switch len(hits) {
		case 0:
			continue
		case 1:
			return hits[0], nil
		}
		return "", usagef("%q matches %s at %.7s: name the file instead", ref, strings.Join(hits, ", "), rv)
	}
	where := "in memory's history"
	if rev != "" {
		where = "at " + rev
	}
	return "", usagef("no topic named %q now or %s: `memdir history` shows what changed", ref, where)
}
