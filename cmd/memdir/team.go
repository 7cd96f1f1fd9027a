package main

import (
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/mcpserver"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/sessionctx"
	wspkg "github.com/memdir/memdir/workspace"
)

// scopeTeam marks team memory in JSON output ("scope": "team").
const scopeTeam = "team"

// teamMemory is the project's team memory (package workspace opens it).
type teamMemory = wspkg.Team

// teamDefault is where team memory lives when team.dir is not set.
const teamDefault = wspkg.TeamDefault

// team opens the project's team memory; nil for a subagent's memory.
func (a *app) team(ws *workspace, create bool) (*teamMemory, error) {
	return a.resolver().Team(ws, create)
}

// teamExisting opens the team memory for a read: nil when there is none
// in this project yet.
func (a *app) teamExisting(ws *workspace) (*teamMemory, error) {
	return a.resolver().ExistingTeam(ws)
}

// teamRead opens the team memory for a read that also shows personal
// memory; a refused team directory is left out with a warning.
func (a *app) teamRead(ws *workspace) *teamMemory { return a.resolver().ReadTeam(ws) }

// scopeDir is the memory directory a topic command acts on: the team's
// with --team, else the personal one.
func (a *app) scopeDir(ws *workspace, team bool) (*memdir.Dir, string, error) {
	d, err := a.resolver().Scope(ws, team)
	if err != nil {
		return nil, "", err
	}
	return d, d.Path, nil
}

// addTarget is the directory an add writes to, personal or the team's.
func (a *app) addTarget(team bool) (*memdir.Dir, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, err
	}
	return a.resolver().AddTarget(ws, team)
}

// topicIn resolves the topic a person named (workspace.FindTopic).
func (a *app) topicIn(ref string, team, fallback bool) (*workspace, *memdir.Dir, string, bool, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, nil, "", false, err
	}
	d, file, isTeam, err := a.resolver().FindTopic(ws, ref, team, fallback)
	return ws, d, file, isTeam, err
}

// teamContext is the team memory for the session context: nil when the
// project has none.
func (a *app) teamContext(ws *workspace) (*sessionctx.TeamMemory, error) {
	tm := a.teamRead(ws)
	if tm == nil {
		return nil, nil
	}
	data, err := tm.Dir.AgentIndex(index.DefaultCaps)
	if err != nil {
		return nil, err
	}
	return &sessionctx.TeamMemory{Dir: tm.Dir.Path, Rel: tm.Rel, Index: data, Caps: index.DefaultCaps}, nil
}

// mcpTeam is the team memory opener of an MCP call's project: nil for a
// subagent's memory, which has no team part.
func mcpTeam(o *wspkg.Options, ws *workspace) mcpserver.TeamOpener {
	if ws.Loc.Source == canonical.SourceAgent {
		return nil
	}
	return func(create bool) (*mcpserver.Team, error) {
		tm, err := o.Team(ws, create)
		if err != nil || tm == nil {
			return nil, err
		}
		return &mcpserver.Team{Dir: tm.Dir, Rel: tm.Rel}, nil
	}
}
