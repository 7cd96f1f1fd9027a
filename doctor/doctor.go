// Package doctor checks, for one project, what `memdir setup` promises: the
// agent starts memdir (on the PATH it uses), the MCP server and the hooks
// are wired (the prompt hook that recalls memories included) and approved
// where the client records approval (Claude Code's
// workspace trust, Codex's project trust and hook review, Gemini CLI's
// folder trust), the agent has one memory (memdir's, not a second store
// beside it, and MEMORY.md loaded once), the memory directory is readable,
// MEMORY.md is within its load caps, and in log mode something runs the
// dream. The project's team memory, when it has one, is inside the
// project, its index is within its caps with no dangling entry, no
// conflict copy a git pull or sync left waits to be merged, and this clone
// registers the merge driver its .gitattributes names. Each finding names
// the one command that fixes it.
//
// Doctor only reads (team memory through its store, which refuses a link
// out of it). Whether setup's wiring is in place is asked of setup
// itself (agentsetup.Plan: a plan that would change a file means it is
// not); what each client records about trust comes from docs/agents.md.
package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/agentsetup"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/untrusted"
)

// Agents are the agents doctor checks: those whose hooks carry memory.
var Agents = []string{"claude", "codex", "gemini", "amp"}

// Status is a check's outcome.
type Status string

// The outcomes: a warning does not fail the run.
const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
)

// Check is one finding.
type Check struct {
	Agent  string `json:"agent,omitempty"`
	Scope  string `json:"scope,omitempty"` // ScopeTeam for team memory's checks
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"` // the one command (or step) that fixes it
}

// Options say which project to check and how to look.
type Options struct {
	Agents    []string // empty: every agent setup wired for this project
	Home      string   // the user's home directory
	Root      string   // the project's worktree root
	Getenv    func(string) string
	MemoryDir string // memdir's memory directory for the project
	// MemdirHome is memdir's home (where the sync remote is recorded);
	// empty skips the sync remote's check.
	MemdirHome string
	// Program is what `memdir setup --user` would write (this memdir's
	// path, or "memdir").
	Program string
	// Self is the memdir executable running doctor, wherever it lives:
	// the one the PATH advice names.
	Self     string
	LookPath func(string) (string, error)
	LogMode  bool
	// Scheduled reports whether something runs `memdir daemon` or `memdir
	// dream` on a schedule (cron, a systemd or launchd unit), and where.
	Scheduled func() (string, bool)
	// Team is the project's team memory; nil when it has none.
	Team *Team
}

// Failed reports whether any check failed.
func Failed(cs []Check) bool {
	for _, c := range cs {
		if c.Status == Fail {
			return true
		}
	}
	return false
}

// Run makes every check.
func Run(o Options) []Check {
	var out []Check
	agents := o.Agents
	if len(agents) == 0 {
		agents = wiredAgents(o)
		if len(agents) == 0 {
			out = append(out, Check{Name: "setup", Status: Fail,
				Detail: "no agent is wired to memdir in this project or your user files",
				Fix:    "memdir setup claude (or codex, gemini)"})
		}
	}
	for _, a := range agents {
		out = append(out, agentChecks(o, a)...)
	}
	out = append(out, memoryChecks(o)...)
	out = append(out, syncChecks(o)...)
	if o.Team != nil {
		out = append(out, teamChecks(o.Team)...)
	}
	return out
}

// setupOptions are setup's options for agent in one scope, with the
// program the agent's files run now (setup --command wrote another).
func setupOptions(o Options, agent string, user bool) agentsetup.Options {
	so := agentsetup.Options{Agent: agent, User: user, Program: "memdir", Home: o.Home, Root: o.Root, Getenv: o.Getenv}
	if user {
		so.Program = o.Program
	} else {
		so.MemoryDir = o.MemoryDir
	}
	if p := agentsetup.WiredProgram(so); p != "" {
		so.Program = p
	}
	return so
}

// pending lists the files setup would still change; nil when its wiring
// is complete.
func pending(so agentsetup.Options) ([]agentsetup.Change, error) {
	cs, err := agentsetup.Plan(so)
	if err != nil {
		return nil, err
	}
	var out []agentsetup.Change
	for _, c := range cs {
		if c.Changed() {
			out = append(out, c)
		}
	}
	return out, nil
}

// wiredAgents are the agents with memdir in any of setup's files.
func wiredAgents(o Options) []string {
	var out []string
	for _, a := range Agents {
		for _, user := range []bool{false, true} {
			cs, _ := agentsetup.Plan(setupOptions(o, a, user))
			if anyMentions(cs) {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

func anyMentions(cs []agentsetup.Change) bool {
	for _, c := range cs {
		if strings.Contains(string(c.Old), "memdir") {
			return true
		}
	}
	return false
}

// agentChecks are the checks of one agent: its wiring, the program it
// runs, the client's own approval, one memory.
func agentChecks(o Options, agent string) []Check {
	pso, uso := setupOptions(o, agent, false), setupOptions(o, agent, true)
	project, perr := pending(pso)
	user, uerr := pending(uso)
	wiring := Check{Agent: agent, Name: "setup", Status: OK}
	scopeUser := false
	switch {
	case perr != nil:
		wiring.Status, wiring.Detail, wiring.Fix = Fail, perr.Error(), "fix the file by hand, then: memdir setup "+agent
	case len(project) == 0:
		wiring.Detail = "the project's files start memdir mcp and run memdir's hooks"
	case uerr == nil && len(user) == 0:
		wiring.Detail, scopeUser = "your user files start memdir mcp and run memdir's hooks", true
	default:
		var files []string
		for _, c := range project {
			files = append(files, c.Path+" ("+verb(c)+")")
		}
		wiring.Status = Fail
		wiring.Detail = "setup's wiring is missing or out of date: " + strings.Join(files, ", ")
		wiring.Fix = "memdir setup " + agent
	}
	prog := pso.Program
	if scopeUser {
		prog = uso.Program
	}
	out := []Check{wiring, programCheck(o, agent, prog)}
	if c, ok := recallCheck(o, agent, scopeUser); ok {
		out = append(out, c)
	}
	switch agent {
	case "claude":
		out = append(out, claudeChecks(o, scopeUser)...)
	case "codex":
		out = append(out, codexChecks(o, scopeUser)...)
	case "gemini":
		if !scopeUser {
			out = append(out, geminiTrust(o))
		}
	case "amp":
		out = append(out, ampChecks(o, scopeUser)...)
	}
	return out
}

func verb(c agentsetup.Change) string {
	if c.Old == nil {
		return "missing"
	}
	return "would be updated"
}

// programCheck: the agent finds the memdir its files name. When it does
// not, the fix points the files at the memdir running doctor.
func programCheck(o Options, agent, prog string) Check {
	c := Check{Agent: agent, Name: "program", Status: OK}
	fix := "put the folder that holds memdir on the PATH the agent starts with"
	if o.Self != "" {
		fix = "memdir setup " + agent + " --command " + o.Self
	}
	if filepath.IsAbs(prog) {
		if fi, err := os.Stat(prog); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			c.Status, c.Detail, c.Fix = Fail, prog+" is not an executable file", fix
			return c
		}
		c.Detail = "runs " + prog
		return c
	}
	p, err := o.LookPath(prog)
	if err != nil {
		c.Status = Fail
		c.Detail = "memdir is not on PATH, so the agent cannot start it"
		c.Fix = fix
		return c
	}
	c.Detail = "memdir on PATH is " + p
	return c
}

// memoryChecks: the directory reads, MEMORY.md is within its caps, and in
// log mode something dreams.
func memoryChecks(o Options) []Check {
	dir := Check{Name: "memory-dir", Status: OK, Detail: o.MemoryDir}
	if _, err := os.ReadDir(o.MemoryDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		dir.Status, dir.Detail, dir.Fix = Fail, fmt.Sprintf("cannot read %s: %v", o.MemoryDir, err), "chmod u+rwx "+o.MemoryDir
	} else if err != nil {
		dir.Detail = o.MemoryDir + " (not created yet: the first memory creates it)"
	}
	out := []Check{dir}
	caps := Check{Name: "index", Status: OK}
	data, err := untrusted.ReadFile(filepath.Join(o.MemoryDir, "MEMORY.md"), "", untrusted.MaxMemory)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		caps.Detail = "no MEMORY.md yet"
	case err != nil:
		caps.Status, caps.Detail, caps.Fix = Fail, "cannot read MEMORY.md: "+err.Error(), "chmod u+rw "+filepath.Join(o.MemoryDir, "MEMORY.md")
	default:
		p := index.Measure(data, index.DefaultCaps)
		caps.Detail = fmt.Sprintf("MEMORY.md: %d of %d lines, %d of %d characters", p.Lines, p.Caps.Lines, p.Bytes, p.Caps.Bytes)
		if p.OverCap {
			caps.Status = Fail
			caps.Detail += fmt.Sprintf("; over its load caps, %d entries are cut from what agents load", len(p.Invisible))
			caps.Fix = "memdir index --fit"
		}
	}
	out = append(out, caps)
	if o.LogMode {
		s := Check{Name: "dream-schedule", Status: OK}
		if where, ok := o.Scheduled(); ok {
			s.Detail = "the dream runs from " + where
		} else {
			s.Status = Warn
			s.Detail = "log mode, and nothing runs the dream on a schedule: entries wait in the daily logs"
			s.Fix = "memdir daemon (or a cron line: 0 3 * * * memdir dream)"
		}
		out = append(out, s)
	}
	return out
}
