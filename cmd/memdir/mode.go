package main

import (
	"github.com/memdir/memdir/settings"
	wspkg "github.com/memdir/memdir/workspace"
)

// modeChoice is a memory directory's mode and where it comes from.
type modeChoice = wspkg.ModeChoice

// modeOf resolves the mode of the memory directory dir (workspace.ModeOf
// holds the rule).
func modeOf(s *settings.Settings, dir string) (modeChoice, error) { return wspkg.ModeOf(s, dir) }
