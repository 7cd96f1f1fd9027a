package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/doctor"
	"github.com/memdir/memdir/memdir"
	wspkg "github.com/memdir/memdir/workspace"
)

func newDoctorCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor [claude|codex|gemini|amp]",
		Short: "Check that memdir is this project's agent memory, and say what to fix",
		Long: `Check, for this project, what ` + "`memdir setup`" + ` promises: the agent finds memdir
(on PATH, or the path its files name), the MCP server and the hooks are wired
as setup wires them, the client's own approval is given (Claude Code's
workspace trust, Codex's project trust and hook review, Gemini CLI's folder
trust, Amp's approval of a workspace server), there is one memory (Claude Code's auto memory is memdir's
directory, and MEMORY.md reaches the model once), the memory directory is
readable, MEMORY.md is within its load caps, and in log mode something runs
the dream. A team remote the project's settings propose and you have not
accepted is a warning. Each problem comes with the one command that fixes it.

The project's team memory (docs/team.md), when it has one, is checked too,
each line marked team ("scope": "team" in JSON): team.dir stays inside the
project, its MEMORY.md is within its caps with no dangling entry, no
conflict copy a git pull or sync left waits to be merged, and this clone
registers memdir's merge driver that its .gitattributes names.

Without an agent, every agent setup wired here is checked. Exit 0 when all
is well, 1 when something is wrong.

Examples:
  memdir doctor
  memdir doctor codex --json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 || len(args) == 1 && !slices.Contains(doctor.Agents, args[0]) {
				return usagef("doctor takes at most one agent: %s", strings.Join(doctor.Agents, ", "))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error { return runDoctor(a, args) },
	}
}

func runDoctor(a *app, agents []string) error {
	r := a.resolver()
	p, err := r.FindProject()
	if err != nil {
		return err
	}
	loc, err := r.Locate(p)
	if err != nil {
		return err
	}
	mode, err := wspkg.Mode(p.Settings, loc.Dir)
	if err != nil {
		return err
	}
	root := p.WorkTree()
	home := a.getenv("HOME")
	checks := doctor.Run(doctor.Options{Agents: agents, Home: home, Root: root, Getenv: a.getenv,
		MemoryDir: loc.Dir, MemdirHome: memdirHome(a, p), Program: a.defaultProgram(true), Self: selfPath(), LookPath: exec.LookPath, LogMode: mode == memdir.Log,
		Scheduled: func() (string, bool) { return doctor.FindSchedule(home, userCrontab) },
		Team:      a.doctorTeam(&workspace{Project: *p, Loc: loc})})
	if n := a.teamRemoteNotice(); n != "" {
		checks = append(checks, doctor.Check{Name: "team-remote", Status: doctor.Warn, Detail: n,
			Fix: "memdir remote team accept (only if you trust the remote this project names)"})
	}
	if a.json {
		if err := a.writeJSON(checks); err != nil {
			return err
		}
	} else {
		for _, c := range checks {
			name := c.Name
			if c.Agent != "" {
				name = c.Agent + " " + name
			}
			if c.Scope != "" {
				name = c.Scope + " " + name
			}
			fmt.Fprintf(a.out, "%-4s %s: %s\n", c.Status, name, c.Detail)
			if c.Fix != "" && c.Status != doctor.OK {
				fmt.Fprintf(a.out, "     fix: %s\n", c.Fix)
			}
		}
	}
	if doctor.Failed(checks) {
		return errFound
	}
	return nil
}

// doctorTeam is the team memory doctor checks: nil when the project has
// none; a team.dir refused is reported, never read.
func (a *app) doctorTeam(ws *workspace) *doctor.Team {
	tm, err := a.teamExisting(ws)
	switch {
	case err != nil:
		return &doctor.Team{Rel: teamSetting(ws), Refused: err}
	case tm == nil:
		return nil
	}
	return &doctor.Team{Rel: tm.Rel, Dir: tm.Dir}
}

// userCrontab is the user's crontab, or "" when there is none (or no
// crontab program).
func userCrontab() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "crontab", "-l").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// selfPath is this memdir's executable, links resolved; "" when unknown.
func selfPath() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe
}

// memdirHome is memdir's home for the project's settings ("" when it
// cannot be told), where the sync remote is recorded.
func memdirHome(a *app, p *wspkg.Project) string {
	home, err := canonical.Home(a.getenv, p.Settings.TrustHome())
	if err != nil {
		return ""
	}
	return home
}
