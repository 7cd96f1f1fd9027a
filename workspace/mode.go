package workspace

import (
	"fmt"
	"path/filepath"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/settings"
)

// ModeChoice is a memory directory's mode and where it comes from.
type ModeChoice struct {
	Mode memdir.Mode
	// From says where the mode comes from, for `path` and `init`: "init
	// DIR/.memdir/mode", "project /r/.memdir.yaml:3", "default".
	From string
	// Recorded is the mode `init` recorded in the directory, if any.
	Recorded memdir.Mode
}

// ModeOf resolves the mode of the memory directory dir. One rule, in this
// order:
//
//  1. a managed lock, the environment (MEMDIR_MODE), a flag, or the
//     project's own settings files (.memdir.yaml, .memdir.local.yaml);
//  2. the mode `memdir init` recorded in the directory (.memdir/mode);
//  3. the user's or the managed settings file: a default for memory that
//     never recorded a mode;
//  4. live.
//
// So `memdir config set mode log` (the user's file) is a default for new
// projects: a project `init` set up keeps the mode it recorded.
func ModeOf(s *settings.Settings, dir string) (ModeChoice, error) {
	recorded, found, err := memdir.LookupRecordedMode(dir)
	if err != nil {
		return ModeChoice{}, fmt.Errorf("%s: %w", filepath.Join(dir, memdir.StateDir, "mode"), err)
	}
	c := ModeChoice{}
	if found {
		c.Recorded = recorded
	}
	v, ok := s.Lookup("mode")
	set := ok && v.Origin.Layer != settings.Default
	if set && (v.Origin.Locked || v.Origin.Layer >= settings.Project || !found) {
		m, err := memdir.ParseMode(v.Value)
		if err != nil {
			return ModeChoice{}, err
		}
		c.Mode, c.From = m, v.Origin.String()
		return c, nil
	}
	if found {
		c.Mode, c.From = recorded, "init "+filepath.Join(dir, memdir.StateDir, "mode")
		return c, nil
	}
	c.Mode, c.From = memdir.Live, "default"
	return c, nil
}

// Mode is a memory directory's mode, by the rule of ModeOf.
func Mode(s *settings.Settings, dir string) (memdir.Mode, error) {
	c, err := ModeOf(s, dir)
	return c.Mode, err
}
