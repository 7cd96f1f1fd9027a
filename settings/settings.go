// Package settings is memdir's settings cascade: every setting a command
// reads (home, dir, mode, dream.*, ...) is resolved here, from the lowest
// layer to the highest:
//
//	built-in defaults
//	< managed  /etc/memdir/config.yaml (or the file MEMDIR_MANAGED_CONFIG names)
//	< user     <home>/config.yaml
//	< project  <root>/.memdir.yaml
//	< local    <root>/.memdir.local.yaml
//	< MEMDIR_* environment variables
//	< command-line flags
//
// The managed file may lock keys (`locked: [mode, dir]`): a locked key keeps
// the value it has after the managed layer, whatever later layers say.
//
// Files are YAML; a key may be written nested (`dream: {schedule: ...}`) or
// dotted (`dream.schedule: ...`). Unknown keys produce warnings; invalid
// values make Load fail with the file, the line and the allowed values.
//
// The project file is committed with the repository, so it is untrusted:
// its settings that run a command or reach outside the project
// (dream.distiller, context.allow_outside_imports, home, a dir outside the
// root, profiles naming outside paths) are dropped with one warning unless
// the person trusted the file's current content (Trust, `memdir trust`).
//
// The home setting is decided without the user file, because the user file
// lives inside home: a `home` key in the user file is ignored with a warning.
//
// A key written with no value (`mode:`) and an empty environment variable
// leave the key unset in that layer; write `dir: ""` to clear a value. Path
// settings resolve "~" and relative paths in Settings.Path. Only the MEMDIR_
// variables named in the registry are read, so MEMDIR_NOW and the like are
// never mistaken for settings.
package settings

import (
	"errors"
	"fmt"
	"strings"
)

// Layer is one level of the cascade. Later layers override earlier ones.
type Layer int

// The layers, from the lowest precedence to the highest.
const (
	Default Layer = iota
	Managed
	User
	Project
	Local
	Env
	Flag
)

var layerNames = [...]string{"default", "managed", "user", "project", "local", "env", "flag"}

// String returns the layer's lowercase name, such as "project".
func (l Layer) String() string {
	if l < 0 || int(l) >= len(layerNames) {
		return fmt.Sprintf("layer(%d)", int(l))
	}
	return layerNames[l]
}

// ParseLayer returns the layer named s ("managed", "user", ...).
func ParseLayer(s string) (Layer, error) {
	for i, name := range layerNames {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Layer(i), nil
		}
	}
	return 0, fmt.Errorf("unknown scope %q: use one of %s", s, strings.Join(layerNames[:], ", "))
}

// Origin says where a setting's value came from.
type Origin struct {
	// Layer is the layer that supplied the value.
	Layer Layer
	// File is the settings file for file layers, the variable name for the
	// environment layer, and empty for defaults and flags.
	File string
	// Line is the value's line in File, or 0.
	Line int
	// Locked reports that the managed file locks this key.
	Locked bool
}

// String renders the origin for `config list --show-origin`, such as
// "project /r/.memdir.yaml:3" or "env MEMDIR_MODE" or "managed (locked)".
func (o Origin) String() string {
	var b strings.Builder
	b.WriteString(o.Layer.String())
	if o.File != "" {
		b.WriteString(" " + o.File)
		if o.Line > 0 {
			fmt.Fprintf(&b, ":%d", o.Line)
		}
	}
	if o.Locked {
		b.WriteString(" (locked)")
	}
	return b.String()
}

// Value is one resolved setting.
type Value struct {
	Key    string
	Value  string
	Origin Origin
}

// Warning is a problem that does not stop memdir: an unknown key, a home
// key in the user file, a locked key set in a later layer.
type Warning struct {
	File    string
	Line    int
	Message string
	// Untrusted marks the notice that the project file's sensitive
	// settings were ignored for want of trust.
	Untrusted bool
}

// String renders the warning as "file:line: message".
func (w Warning) String() string {
	return location(w.File, w.Line) + w.Message
}

func location(file string, line int) string {
	switch {
	case file != "" && line > 0:
		return fmt.Sprintf("%s:%d: ", file, line)
	case file != "":
		return file + ": "
	}
	return ""
}

// Sentinel errors.
var (
	// ErrUnknownKey is matched by every *UnknownKeyError.
	ErrUnknownKey = errors.New("unknown setting")
	// ErrStructured is returned when a structured key (profiles) is read or
	// written as a single value.
	ErrStructured = errors.New("structured setting")
)

// InvalidError reports a value a key does not allow.
type InvalidError struct {
	// File is the settings file, the environment variable, or empty.
	File string
	// Line is the line in File, or 0.
	Line  int
	Key   string
	Value string
	// Reason replaces the default `invalid value "x"` text when set, for
	// example "expected a single value, not a mapping".
	Reason string
	// Allowed describes the allowed values.
	Allowed string
}

func (e *InvalidError) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = fmt.Sprintf("invalid value %q", e.Value)
	}
	return fmt.Sprintf("%s%s: %s (allowed: %s)", location(e.File, e.Line), e.Key, reason, e.Allowed)
}

// UserError marks the error as the user's input (exit 2).
func (e *InvalidError) UserError() {}

// UnknownKeyError reports a key that is not a setting.
type UnknownKeyError struct {
	Key string
}

func (e *UnknownKeyError) Error() string {
	return fmt.Sprintf("unknown setting %q (known: %s)", e.Key, strings.Join(keyNames(), ", "))
}

// Unwrap returns ErrUnknownKey.
func (e *UnknownKeyError) Unwrap() error { return ErrUnknownKey }

// UserError marks the error as the user's input (exit 2).
func (e *UnknownKeyError) UserError() {}

// SyntaxError reports a settings file that is not valid YAML or is not a
// mapping.
type SyntaxError struct {
	File    string
	Line    int
	Message string
	// Err is the YAML parser's error, if any.
	Err error
}

func (e *SyntaxError) Error() string {
	return location(e.File, e.Line) + e.Message
}

// Unwrap returns the YAML parser's error.
func (e *SyntaxError) Unwrap() error { return e.Err }

// UserError marks the error as the user's input (exit 2).
func (e *SyntaxError) UserError() {}
