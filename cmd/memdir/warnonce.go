package main

import (
	"path/filepath"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

// pressureFile records the index-pressure warning last said for a memory
// directory, so that it is said once per change of state, not on every
// add.
var pressureFile = filepath.Join(memdir.StateDir, "pressure-said")

// warnPressure says the index-pressure warning of a write on stderr when
// the index's state differs from the one last said (under 70% of its
// caps; over 70%; over a cap, with the entries that cannot be seen), and
// records the state. Losing the record only means saying it once more.
func (a *app) warnPressure(d *memdir.Dir, p index.Pressure) {
	state := ""
	switch {
	case p.OverCap:
		state = "over cap:"
		for _, e := range p.Invisible {
			state += " " + e.File
		}
	case p.OverWarn:
		state = "over 70%"
	}
	said, _ := atomicfile.ReadInside(d.Path, pressureFile)
	if string(said) == state {
		return
	}
	if msg := p.Message(); msg != "" {
		a.warn("%s", msg)
	}
	_ = atomicfile.WriteInside(d.Path, pressureFile, []byte(state), atomicfile.Options{Perm: 0o600})
}

// warnOutsideRepo says, when memory was just created for a directory
// outside any git repository, that this directory has memory of its own:
// outside git every directory is its own project.
func (a *app) warnOutsideRepo(ws *workspace, existed bool) {
	if existed || ws == nil || ws.Repo.Kind != canonical.KindNone || ws.Loc.Source != canonical.SourceDefault || !ws.Dir.Exists() {
		return
	}
	a.warn("%s is not in a git repository, so it has memory of its own (%s): run memdir in the project's repository, or give --dir", ws.Repo.Root, ws.Loc.Dir)
}
