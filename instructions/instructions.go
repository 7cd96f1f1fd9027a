// Package instructions finds and loads the instruction files an AI coding
// agent reads at the start of a session (AGENTS.md, CLAUDE.md, GEMINI.md,
// their rules directories and @imports), following the rules of a Profile,
// and explains every file it considered and what happened to it.
//
// Discover returns the files in loading order: managed, then user, then each
// directory from the project root down to the working directory (project
// files, that directory's rules, then local files). An imported file follows
// the file that imports it (depth first), so the importer's text keeps its
// "@path" as written and the imported text comes right after it. Nothing is
// loaded twice: files are compared by their real path.
package instructions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/typesx"
)

// Sentinel errors.
var (
	ErrNoScopeFile   = errors.New("profile has no file for that scope")
	ErrEmptyText     = errors.New("empty text")
	ErrNegativeLimit = errors.New("limits and import depth must not be negative")
	ErrNoCwd         = errors.New("no working directory given")
)

// UnknownProfileError reports a profile name that is neither built in nor
// defined in settings.
type UnknownProfileError struct {
	Name  string
	Known []string
}

func (e *UnknownProfileError) Error() string {
	return fmt.Sprintf("unknown profile %q: use one of %s", e.Name, strings.Join(e.Known, ", "))
}

// Status says what happened to a file Discover considered.
type Status string

// The statuses a File can have.
const (
	StatusLoaded          Status = "loaded"           // loaded in full
	StatusTruncated       Status = "truncated"        // loaded up to a line boundary within a limit
	StatusSkippedGlob     Status = "skipped-glob"     // a rule limited to paths no --file matches: available, not loaded
	StatusShadowed        Status = "shadowed"         // another name of the same directory won
	StatusCycle           Status = "cycle"            // an import of a file already in the import chain
	StatusDuplicate       Status = "duplicate"        // the same real file was already loaded
	StatusOverBudget      Status = "over-budget"      // the total limit was already used up
	StatusUnreadable      Status = "unreadable"       // exists but cannot be read
	StatusMissing         Status = "missing"          // an import target that does not exist
	StatusNotText         Status = "not-text"         // binary content or a directory
	StatusOutsideRoot     Status = "outside-root"     // an import leaving the project, from a project file
	StatusDepthLimit      Status = "depth-limit"      // an import beyond the profile's import depth
	StatusEmpty           Status = "empty"            // nothing but white space
	StatusOutsideWorktree Status = "outside-worktree" // a main-repository file above the linked worktree
)

// Kinds of File.
const (
	KindInstructions = "instructions"
	KindRule         = "rule"
	KindImport       = "import"
)

// File is one file Discover considered.
type File struct {
	// Path is the file's path as found (not symlink-resolved).
	Path string
	// Scope is where the file comes from; an import has its importer's scope.
	Scope typesx.Scope
	// Kind is KindInstructions, KindRule or KindImport.
	Kind string
	// Size is the file's size on disk in bytes (0 when not read).
	Size int
	// Status says what happened to it; Reason says why, in words.
	Status Status
	Reason string
	// ImportedFrom is the importing file's path, for imports.
	ImportedFrom string
	// Import is the import as written, without the "@", for imports.
	Import string
	// Depth is the import hop count: 0 for files found by the walk.
	Depth int
	// OnDemand marks a file loaded because a --file lies below it
	// (Gemini's just-in-time context).
	OnDemand bool
	// Content is the text loaded into context (frontmatter of rules and
	// imports removed, comments stripped, truncation note added); empty
	// unless Status is loaded or truncated.
	Content string
}

// Loaded reports whether f's content goes into context.
func (f File) Loaded() bool { return f.Status == StatusLoaded || f.Status == StatusTruncated }

// Skill is a SKILL.md found in one of the profile's skill directories.
type Skill struct {
	Name        string
	Description string
	Path        string
	Scope       typesx.Scope
	// Overrides is the path of a user skill of the same name this project
	// skill replaces.
	Overrides string
}

// Result is everything Discover found.
type Result struct {
	// Profile is the name of the profile used.
	Profile string
	// Files lists every file considered, in loading order.
	Files []File
	// Skills lists the skills available, sorted by name.
	Skills []Skill
	// Notes are remarks about the discovery as a whole.
	Notes []string
	// Bytes is the total loaded content.
	Bytes int
}

// Options says where and for what Discover looks.
type Options struct {
	// Profile gives the discovery rules.
	Profile Profile
	// Root is the canonical project root (the main worktree's root).
	Root string
	// WorkTree is the top of the worktree containing Cwd. When empty,
	// Discover looks for the nearest .git between Cwd and Root.
	WorkTree string
	// Cwd is the working directory (required).
	Cwd string
	// Files are the files the agent is about to touch (absolute, or relative
	// to Cwd); they select path-limited rules.
	Files []string
	// UserHome replaces the home directory for "~/" (default: os.UserHomeDir).
	UserHome string
	// ConfigHome is $XDG_CONFIG_HOME, for "{config}" (default: UserHome/.config).
	ConfigHome string
	// ManagedRoot replaces the profile's ManagedDir for "{managed}".
	ManagedRoot string
	// AgentID fills "{agent}" (default "agent").
	AgentID string
	// AllowOutsideImports lets project files import files outside the
	// project root.
	AllowOutsideImports bool
	// Disabled turns instruction loading off: Discover returns a note only.
	Disabled bool
}
