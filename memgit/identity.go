package memgit

import (
	"time"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// signature is who a commit is by, as git decides it: GIT_AUTHOR_NAME and
// friends (role is AUTHOR or COMMITTER), else user.name and user.email
// from the repository's and the person's git config, else memdir.
func (r *Repo) signature(role string, when time.Time) object.Signature {
	s := object.Signature{Name: r.getenv("GIT_" + role + "_NAME"), Email: r.getenv("GIT_" + role + "_EMAIL"), When: when}
	if s.Name == "" || s.Email == "" {
		if cfg, err := r.g.ConfigScoped(config.GlobalScope); err == nil {
			if s.Name == "" {
				s.Name = cfg.User.Name
			}
			if s.Email == "" {
				s.Email = cfg.User.Email
			}
		}
	}
	if s.Name == "" {
		s.Name = "memdir"
	}
	if s.Email == "" {
		s.Email = "memdir@localhost"
	}
	return s
}
