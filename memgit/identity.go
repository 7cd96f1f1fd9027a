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
		name, email := r.configUser()
		if s.Name == "" {
			s.Name = name
		}
		if s.Email == "" {
			s.Email = email
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

// configUser reads user.name and user.email from the repository's config,
// else from the person's global one (~/.gitconfig or
// $XDG_CONFIG_HOME/git/config).
func (r *Repo) configUser() (name, email string) {
	cfg := r.config()
	name, email = cfg.Value("user", "name"), cfg.Value("user", "email")
	if name != "" && email != "" {
		return name, email
	}
	if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
		if name == "" {
			name = cfg.User.Name
		}
		if email == "" {
			email = cfg.User.Email
		}
	}
	return name, email
}
