// Package agentsetup wires memdir into coding agents' own configuration
// files, and takes it out again: `memdir mcp` as an MCP server, and hooks
// (or, for an agent without hooks, a note in its instruction file) that
// load memory at session start and capture what the person asks to be
// remembered. docs/agents.md lists, per agent, the files, the keys and the
// shipped client code they were read from.
//
// Setup edits files people write by hand, so it edits them the way a
// careful person would: it splices its own text in and leaves every other
// byte alone (comments, key order, indentation, line endings), a second
// run changes nothing, and an undo takes out exactly what it put in, which
// restores the original bytes of a file it did not otherwise touch. A file
// it cannot parse is refused whole.
//
// JSON files (Claude Code, Gemini CLI, Amp, Codex's hooks.json) are parsed
// by a small JSON-with-comments scanner that records where every value
// sits. Codex's config.toml is not decoded with a TOML library: none is
// among memdir's dependencies, and the usual ones (BurntSushi/toml,
// pelletier/go-toml) decode into values and write a fresh file, losing
// comments and layout. Setup only needs to know that the file parses and
// whether [mcp_servers.memdir] is already defined, so a scanner checks the
// syntax and setup appends (or removes) one fenced block of its own.
package agentsetup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
)

// Change is what setup does to one file.
type Change struct {
	Path  string   `json:"path"`
	Old   []byte   `json:"-"` // the file as it is; nil when it does not exist
	New   []byte   `json:"-"` // the file afterwards; nil when setup removes it
	Notes []string `json:"notes,omitempty"`
	mode  fs.FileMode
	// prune is the project folder holding the file (.claude, .codex, ...):
	// removed when removing the file leaves it empty.
	prune string
}

// Changed reports whether the file would change.
func (c Change) Changed() bool {
	return !bytes.Equal(c.Old, c.New) || (c.Old == nil) != (c.New == nil)
}

// Action names what happens to the file: created, updated, removed or
// unchanged.
func (c Change) Action() string {
	switch {
	case !c.Changed():
		return "unchanged"
	case c.Old == nil:
		return "created"
	case c.New == nil:
		return "removed"
	}
	return "updated"
}

// ConfigError is a configuration file setup will not edit: a value of the
// wrong kind, a block of its own that was cut short. The person fixes it.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }

// UserError marks the error as the person's to fix: the CLI exits 2.
func (e *ConfigError) UserError() {}

// Plan works out every file's change without writing anything.
func Plan(o Options) ([]Change, error) {
	ts, err := targets(o)
	if err != nil {
		return nil, &ConfigError{Msg: err.Error()}
	}
	var out []Change
	for _, t := range ts {
		c, err := plan(t, o)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) && !errors.Is(err, fs.ErrPermission) {
				err = &ConfigError{Msg: err.Error()}
			}
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func plan(t target, o Options) (Change, error) {
	path, err := resolve(t.path, o)
	if err != nil {
		return Change{}, err
	}
	c := Change{Path: path, mode: 0o644}
	if o.User {
		c.mode = 0o600
	} else if dir := filepath.Dir(path); dir != o.Root && within(o.Root, dir) {
		c.prune = dir
	}
	data, err := untrusted.ReadFile(path, "", untrusted.MaxInstruction)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if o.Undo {
			return c, nil
		}
	case err != nil:
		return c, fmt.Errorf("read %s: %w", path, err)
	default:
		c.Old, c.New = data, data
	}
	out, notes, gone, err := t.edit(string(data), o)
	if err != nil {
		return c, err
	}
	c.Notes = notes
	switch {
	case gone, c.Old == nil && out == "":
		c.New = nil
	default:
		c.New = []byte(out)
	}
	return c, nil
}

// resolve follows a symbolic link to the file it names (dotfile managers
// link settings files), but a project's file may not lead outside the
// project: a repository must not make setup edit a file elsewhere.
func resolve(path string, o Options) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return "", &ConfigError{Msg: fmt.Sprintf("%s is a symbolic link to a file that does not exist; fix or remove it (memdir changed nothing)", path)}
		}
		return path, nil
	}
	if err != nil {
		return "", err
	}
	if !o.User && real != path && !within(o.Root, real) {
		return "", &ConfigError{Msg: fmt.Sprintf("%s links to %s, outside the project; memdir will not edit it (use --user for your own files)", path, real)}
	}
	return real, nil
}

func within(root, path string) bool {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Apply writes one change: a backup of the old file into backupDir (named
// stamp-<path>), then the new file atomically, creating its directory. It
// refuses when the file changed since Plan read it. It returns the
// backup's path, or "" when there was no old file.
func Apply(c Change, backupDir, stamp string) (string, error) {
	if !c.Changed() {
		return "", nil
	}
	now, err := untrusted.ReadFile(c.Path, "", untrusted.MaxInstruction)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Old != nil {
			return "", fmt.Errorf("%s was removed while setup was running; run it again", c.Path)
		}
	case err != nil:
		return "", fmt.Errorf("read %s: %w", c.Path, err)
	case c.Old == nil || !bytes.Equal(now, c.Old):
		return "", fmt.Errorf("%s changed while setup was running; run it again", c.Path)
	}
	backup := ""
	if c.Old != nil {
		if err := os.MkdirAll(backupDir, 0o700); err != nil {
			return "", fmt.Errorf("backup: %w", err)
		}
		name := backupName(c.Path)
		backup = filepath.Join(backupDir, stamp+"-"+name)
		for n := 2; exists(backup); n++ {
			backup = filepath.Join(backupDir, fmt.Sprintf("%s-%d-%s", stamp, n, name))
		}
		if err := atomicfile.WriteFile(backup, c.Old, 0o600); err != nil {
			return "", fmt.Errorf("backup: %w", err)
		}
	}
	if c.New == nil {
		if err := os.Remove(c.Path); err != nil {
			return backup, fmt.Errorf("remove %s: %w", c.Path, err)
		}
		if c.prune != "" && os.Remove(c.prune) == nil {
			return backup, atomicfile.SyncDir(filepath.Dir(c.prune))
		}
		return backup, atomicfile.SyncDir(filepath.Dir(c.Path))
	}
	if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
		return backup, fmt.Errorf("create %s: %w", filepath.Dir(c.Path), err)
	}
	return backup, atomicfile.WriteFile(c.Path, c.New, c.mode)
}
