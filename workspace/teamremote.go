package workspace

import (
	"context"
	"fmt"
	"slices"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memsync"
	"github.com/memdir/memdir/settings"
)

// TeamRemote is the state of a project's team remote: what its settings
// propose and whether the user accepted it (memsync keeps the acceptances).
type TeamRemote struct {
	Project  string `json:"project"`            // the project's identity
	Proposed string `json:"proposed,omitempty"` // the team.remote setting
	From     string `json:"from,omitempty"`     // where it is set, file:line
	Accepted bool   `json:"accepted"`           // the user accepted this URL for this project
	// Home is memdir's home, where the acceptances are recorded.
	Home string `json:"-"`
}

// TeamRemoteOf reads the project's proposed team remote and whether the
// user accepted it.
func (o *Options) TeamRemoteOf(p *Project) (TeamRemote, error) {
	home, err := canonical.Home(o.getenv, p.Settings.TrustHome())
	if err != nil {
		return TeamRemote{}, err
	}
	id, err := canonical.Identity(p.Repo.Root)
	if err != nil {
		return TeamRemote{}, err
	}
	tr := TeamRemote{Project: id, Home: home}
	v, ok := p.Settings.Lookup("team.remote")
	if !ok || v.Value == "" {
		return tr, nil
	}
	tr.Proposed, tr.From = v.Value, Origin(v.Origin)
	accepted, err := memsync.AcceptedTeamRemotes(home)
	tr.Accepted = slices.Contains(accepted, id+"\t"+v.Value)
	return tr, err
}

// AcceptedTeamRemote is the workspace's team remote; ok is false unless
// the project proposes one and the user accepted it (a subagent's memory
// has no team part).
func (o *Options) AcceptedTeamRemote(ws *Workspace) (tr TeamRemote, ok bool, err error) {
	if v, set := ws.Settings.Lookup("team.remote"); !set || v.Value == "" || ws.Loc.Source == canonical.SourceAgent {
		return TeamRemote{}, false, nil
	}
	tr, err = o.TeamRemoteOf(&ws.Project)
	return tr, err == nil && tr.Accepted, err
}

// SyncTeam syncs the project's team memory through its team remote: nil,
// nil unless the project proposes one and the user accepted it. Team
// memory a first sync brings from the remote is made with its
// .gitignore, as a first team add makes it. progress, when set, hears
// the sync's steps (memsync.Options.Progress).
func (o *Options) SyncTeam(ctx context.Context, ws *Workspace, progress func(done, total int)) (*memsync.Result, error) {
	tr, ok, err := o.AcceptedTeamRemote(ws)
	if !ok || err != nil {
		return nil, err
	}
	// Beyond what any remote must pass (memsync.SyncTeam checks that), a
	// team remote must not carry the user's own memory into the project.
	if err := memsync.CheckTeamRemote(tr.Home, tr.Proposed); err != nil {
		return nil, fmt.Errorf("team memory: team.remote (%s): %w", tr.From, err)
	}
	t, err := o.Team(ws, false)
	if err != nil || t == nil {
		return nil, err
	}
	existed := t.Dir.Exists()
	opts := memsync.Options{Home: tr.Home, LockTimeout: t.Dir.LockTimeout(), Now: o.now(), Progress: progress,
		Projects: []memsync.Project{{Dir: t.Dir.Path, Root: ws.WorkTree(), Identity: tr.Project}}}
	res, err := memsync.SyncTeam(ctx, opts, tr.Proposed)
	if err != nil {
		return nil, fmt.Errorf("team memory (team.remote from %s): %w", tr.From, err)
	}
	if !existed && t.Dir.Exists() {
		if err := o.MakeTeamDir(ws, t); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Origin names where a setting came from, as file:line when a file set it.
func Origin(o settings.Origin) string {
	switch {
	case o.File != "" && o.Line > 0:
		return fmt.Sprintf("%s:%d", o.File, o.Line)
	case o.File != "":
		return o.File
	}
	return o.Layer.String()
}
