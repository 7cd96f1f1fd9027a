package main

import (
	"errors"
	"fmt"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
)

// gitOptions hands memgit the command's clock and environment.
func (a *app) gitOptions() memgit.Options { return a.resolver().GitOptions() }

// openGit opens the repository that holds the memory directory, with a
// usage error that says how to get one when there is none.
func (a *app) openGit(ws *workspace) (*memgit.Repo, error) {
	r, err := memgit.Open(ws.Loc.Dir, a.gitOptions())
	if errors.Is(err, memgit.ErrNoRepo) {
		return nil, usagef("the memory directory %s is not in a git repository: run `memdir init --git` to give it one of its own, or set dir to a path inside the project (such as .memdir) and use `memdir commit`", ws.Loc.Dir)
	}
	return r, err
}

// gitInitCheck refuses `init --git` up front, before anything is
// written, when the memory directory sits in another work tree.
func (a *app) gitInitCheck(ws *workspace) error {
	if memgit.OwnRepo(ws.Loc.Dir) {
		return nil
	}
	if r, err := memgit.Open(ws.Loc.Dir, a.gitOptions()); err == nil {
		return usagef("the memory directory %s is inside the git work tree %s: commit memory with the project (`memdir commit`, or the git.autocommit setting) instead of giving it a repository of its own", ws.Loc.Dir, r.Top())
	}
	return nil
}

// gitInit makes the memory directory its own repository and commits what
// is there, under the lock, and says what it did.
func (a *app) gitInit(ws *workspace) (*gitInitJSON, error) {
	lk, err := ws.Dir.Lock("init --git")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	r, created, err := memgit.Init(ws.Loc.Dir, a.gitOptions())
	if err != nil {
		return nil, err
	}
	res, changes, err := r.CommitAll("init")
	if err != nil {
		return nil, err
	}
	g := &gitInitJSON{Created: created, Files: []string{}}
	if res.Committed() {
		g.Files, g.Hash = changes.Paths(), res.Hash.String()
		g.Short = g.Hash[:7]
	}
	return g, nil
}

// line says what init --git did, for the person.
func (g *gitInitJSON) line() string {
	verb := "already a git repository"
	if g.Created {
		verb = "git repository initialized"
	}
	if g.Hash != "" {
		return fmt.Sprintf("%s; committed %s (%s)", verb, memdir.Count(len(g.Files), "file"), g.Short)
	}
	return verb
}
