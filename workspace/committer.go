package workspace

import (
	"errors"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/settings"
)

// GitOptions hands memgit the caller's clock and environment.
func (o *Options) GitOptions() memgit.Options {
	return memgit.Options{Now: o.now(), Getenv: o.getenv}
}

// Committer is what records each change to the memory directory dir
// under the settings s: a git commit when memory is versioned
// (memgit.Policy says when), else nil. It costs one stat when memory is
// not versioned.
func (o *Options) Committer(s *settings.Settings, dir string) memdir.Committer {
	p := memgit.Policy{Git: s.Bool("git"), AutoCommit: s.Bool("git.autocommit")}
	if !p.Versioned(dir) {
		return nil
	}
	return &gitCommitter{o: o, dir: dir, policy: p}
}

// gitCommitter commits each change to memory as its policy says; a
// refusal is a warning, not a failure of the change.
type gitCommitter struct {
	o      *Options
	dir    string
	policy memgit.Policy
}

// Commit records c as one commit.
func (g *gitCommitter) Commit(c memdir.Change) error {
	return g.o.GitRefused(c.Message, g.policy.Record(g.dir, g.o.GitOptions(), c.Paths, c.Message))
}

// GitRefused turns a refusal to commit into a warning, since the change
// itself is done, and passes other errors on.
func (o *Options) GitRefused(what string, err error) error {
	var refused *memgit.RefusedError
	if errors.As(err, &refused) {
		o.warnf("%s is done but not committed: %s; run `memdir commit` once that is sorted", what, refused.Reason)
		return nil
	}
	return err
}
