package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/settings"
)

// scopeFile is the settings file of the scope named scope (layer).
func scopeFile(s *settings.Settings, layer settings.Layer, scope string) (string, error) {
	path := s.File(layer)
	if path == "" {
		return "", usagef("no %s settings file here: the %s scope needs a project", scope, scope)
	}
	return path, nil
}

func newConfigUnsetCmd(a *app) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "unset [--scope user|project|local] KEY",
		Short: "Remove a setting from one layer's file",
		Long: `Remove KEY from the settings file of a scope (user, the default; project
or local), keeping every other key, comment and the order, so the layers
below decide its value again. A key the file does not hold is no error.

Examples:
  memdir config unset mode
  memdir config unset --scope project dir`,
		Args: exactArgs(1, "one setting name"),
		RunE: func(_ *cobra.Command, args []string) error { return runConfigUnset(a, scope, args[0]) },
	}
	cmd.Flags().StringVar(&scope, "scope", "user", "user, project or local")
	return cmd
}

func runConfigUnset(a *app, scope, key string) error {
	layer, err := settings.ParseLayer(scope)
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	if err := settings.CheckScope(layer, key); err != nil {
		return &usageError{msg: err.Error()}
	}
	_, s, _, err := a.project()
	if err != nil {
		return err
	}
	path, err := scopeFile(s, layer, scope)
	if err != nil {
		return err
	}
	removed, err := settings.Unset(path, key)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(struct {
			Key     string `json:"key"`
			Layer   string `json:"layer"`
			File    string `json:"file"`
			Removed bool   `json:"removed"`
		}{key, layer.String(), path, removed})
	}
	if !removed {
		fmt.Fprintf(a.out, "%s is not set in %s\n", key, path)
		return nil
	}
	fmt.Fprintf(a.out, "unset %s in %s\n", key, path)
	return nil
}

func newConfigEditCmd(a *app) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "edit [--scope user|project|local]",
		Short: "Open one layer's settings file in $EDITOR, then check it",
		Long: `Open the settings file of a scope (user, the default; project or local) in
$VISUAL or $EDITOR, creating it when missing, then load the settings again
and report a mistake the edit made (exit 2, the file kept as written).

Examples:
  memdir config edit
  EDITOR=nano memdir config edit --scope project`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runConfigEdit(a, scope) },
	}
	cmd.Flags().StringVar(&scope, "scope", "user", "user, project or local")
	return cmd
}

func runConfigEdit(a *app, scope string) error {
	if a.json {
		return usagef("config edit has no result to print: drop --json")
	}
	layer, err := settings.ParseLayer(scope)
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	if layer != settings.User && layer != settings.Project && layer != settings.Local {
		return usagef("scope %s: use user, project or local", scope)
	}
	editor, err := a.editor()
	if err != nil {
		return err
	}
	path, err := a.settingsFile(layer, scope)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("config edit: %w", err)
	}
	if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		f.Close()
	}
	if err := a.runEditorWith(editor, path); err != nil {
		return err
	}
	if _, _, _, err := a.project(); err != nil {
		return fmt.Errorf("%s after editing: %w", path, err)
	}
	fmt.Fprintf(a.out, "edited %s\n", path)
	return nil
}

// settingsFile is the settings file of a scope for config edit, found even
// when the settings do not load (a mistake in that very file, say), so
// that the file can be mended.
func (a *app) settingsFile(layer settings.Layer, scope string) (string, error) {
	if _, s, _, err := a.project(); err == nil {
		return scopeFile(s, layer, scope)
	}
	return a.resolver().SettingsPath(layer)
}
