package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/config"
	format "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
)

// ScopeTeam marks the checks of team memory ("scope": "team").
const ScopeTeam = "team"

// Team is the project's team memory, committed with the project
// (docs/team.md), as doctor checks it.
type Team struct {
	// Rel is its directory relative to the project's work tree,
	// slash-separated, as the checks name it.
	Rel string
	// Dir is its store; nil when team.dir was refused.
	Dir *memdir.Dir
	// Refused says why team.dir was refused (it leads out of the
	// project, say): team memory is left out of every read then.
	Refused error
}

// RegisterDriverFix is the command that registers memdir's merge driver
// in a clone, as docs/team.md gives it.
var RegisterDriverFix = `git config merge.` + memsync.DriverName + `.name "` + memsync.DriverLabel + `" && ` +
	`git config merge.` + memsync.DriverName + `.driver "` + memsync.DriverCommand + `"`

// teamChecks: team memory is inside the project, its index is loadable
// and points at its topics, no conflict copy waits for a person, and git
// pull merges it with memdir's driver.
func teamChecks(t *Team) []Check {
	if t.Refused != nil {
		return []Check{{Scope: ScopeTeam, Name: "memory-dir", Status: Fail,
			Detail: "team memory is left out of every read: " + t.Refused.Error(),
			Fix:    "set team.dir (in the project's .memdir.yaml or your settings) to a directory inside the project, such as .memdir/team, or remove the link that leads out"}}
	}
	out := []Check{{Scope: ScopeTeam, Name: "memory-dir", Status: OK, Detail: t.Rel}}
	held := heldIncoming(t.Dir.Path)
	held.Scope = ScopeTeam
	held.Fix = strings.Replace(held.Fix, "memdir resolve ", "memdir resolve --team ", 1)
	out = append(out, teamIndex(t), teamConflicts(t), held)
	if c, ok := teamDriver(t); ok {
		out = append(out, c)
	}
	return out
}

// teamIndex: the team's MEMORY.md is within its load caps and every
// entry points at a topic that exists.
func teamIndex(t *Team) Check {
	name := path.Join(t.Rel, index.IndexName)
	c := Check{Scope: ScopeTeam, Name: "index", Status: OK}
	data, err := t.Dir.IndexBytes()
	var findings []memdir.Finding
	if err == nil {
		findings, err = t.Dir.CheckIndex()
	}
	if err != nil {
		c.Status, c.Detail, c.Fix = Fail, "cannot read "+name+": "+err.Error(), "chmod u+rw "+name
		return c
	}
	p := index.Measure(data, index.DefaultCaps)
	c.Detail = fmt.Sprintf("%s: %d of %d lines, %d of %d characters", name, p.Lines, p.Caps.Lines, p.Bytes, p.Caps.Bytes)
	var dangling []string
	for _, f := range findings {
		if f.Kind == index.KindDangling {
			dangling = append(dangling, fmt.Sprintf("%s:%d", f.File, f.Line))
		}
	}
	if len(dangling) > 0 {
		c.Status = Fail
		c.Detail += "; dangling entries, whose topic does not exist (a teammate may not have committed it): " + strings.Join(dangling, ", ")
		c.Fix = "memdir index --rebuild --team (or commit the missing topics), then commit " + name
	}
	if p.OverCap {
		c.Status = Fail
		c.Detail += fmt.Sprintf("; over its load caps, %d entries are cut from what agents load", len(p.Invisible))
		if c.Fix == "" {
			c.Fix = "memdir index --fit --team, then commit " + name
		}
	}
	return c
}

// teamConflicts: no conflict copy (<topic>.conflict-<hash>.md, which
// memdir's merge driver or a team remote's sync writes when two teammates
// changed the same lines of a topic) waits to be merged by hand.
func teamConflicts(t *Team) Check {
	c := Check{Scope: ScopeTeam, Name: "conflicts", Status: OK, Detail: "no conflict copies"}
	var copies []string
	for _, f := range t.Dir.ConflictCopies(nil) {
		copies = append(copies, path.Join(t.Rel, f.File))
	}
	if len(copies) > 0 {
		c.Status = Fail
		c.Detail = "a teammate's version of a topic you both changed on the same lines, kept by git pull or a sync, waits to be merged by hand: " + strings.Join(copies, ", ")
		c.Fix = "memdir resolve --team <topic>.md --keep mine|theirs|both for each, then commit (memdir lint --team lists them)"
	}
	return c
}

// teamDriver: when team memory's .gitattributes names memdir's merge
// driver, this clone registers it (in its own .git/config, which a clone
// does not copy, or the user's global git config); without it git pull
// merges MEMORY.md as plain text, conflict markers and all. No check
// when the attributes do not name the driver or the project is not in
// git.
func teamDriver(t *Team) (Check, bool) {
	attrs, err := atomicfile.ReadInside(t.Dir.Path, memsync.AttributesFile)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !namesDriver(attrs) {
		return Check{}, false
	}
	c := Check{Scope: ScopeTeam, Name: "merge-driver", Status: Fail, Fix: RegisterDriverFix}
	attrsName := path.Join(t.Rel, memsync.AttributesFile)
	if err != nil {
		c.Detail, c.Fix = "cannot read "+attrsName+": "+err.Error(), "chmod u+r "+attrsName
		return c, true
	}
	dirs, found, err := canonical.FindGitDirs(t.Dir.Path)
	if err != nil || !found {
		return Check{}, false
	}
	cfg, err := dirs.Config()
	if err != nil {
		c.Detail = "cannot read this clone's git config: " + err.Error()
		return c, true
	}
	if driverSet(cfg.Raw) {
		c.Status, c.Detail, c.Fix = OK, "git pull merges team memory with memdir's driver", ""
		return c, true
	}
	if g, err := gitconfig.LoadConfig(gitconfig.GlobalScope); err == nil && driverSet(g.Raw) {
		c.Status, c.Detail, c.Fix = OK, "git pull merges team memory with memdir's driver (your global git config)", ""
		return c, true
	}
	c.Detail = attrsName + " names merge=" + memsync.DriverName + ", but this clone's git config does not register the driver (a clone does not copy it): git pull merges team MEMORY.md as plain text, with conflict markers"
	return c, true
}

// namesDriver reports whether .gitattributes text gives some path
// memdir's merge driver.
func namesDriver(attrs []byte) bool {
	for _, l := range strings.Split(string(attrs), "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && !strings.HasPrefix(f[0], "#") {
			for _, a := range f[1:] {
				if a == "merge="+memsync.DriverName {
					return true
				}
			}
		}
	}
	return false
}

// driverSet reports whether a git config registers memdir's merge
// driver (merge.memdir.driver set to anything).
func driverSet(raw *format.Config) bool {
	if raw == nil || !raw.HasSection("merge") || !raw.Section("merge").HasSubsection(memsync.DriverName) {
		return false
	}
	return strings.TrimSpace(raw.Section("merge").Subsection(memsync.DriverName).Option("driver")) != ""
}
