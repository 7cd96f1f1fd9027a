package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/instructions"
	"github.com/memdir/memdir/settings"
)

func newConfigCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Read and change settings",
		Long: `Settings come from a cascade, each layer overriding the one before it:
built-in defaults < managed /etc/memdir/config.yaml < user <home>/config.yaml
< project <root>/.memdir.yaml < local <root>/.memdir.local.yaml < MEMDIR_*
environment < flags. A managed file can lock a key (locked: [key, ...]), and
then its value wins over everything.

Examples:
  memdir config list --show-origin
  memdir config get mode
  memdir config set --scope project dir .memdir
  memdir config unset mode`,
	}
	cmd.AddCommand(newConfigListCmd(a), newConfigGetCmd(a), newConfigSetCmd(a), newConfigUnsetCmd(a), newConfigEditCmd(a))
	return cmd
}

func newConfigListCmd(a *app) *cobra.Command {
	var showOrigin bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Print every setting and its value",
		Long: `Print every known setting with its effective value; --show-origin adds the
layer, file and line each value came from.

Examples:
  memdir config list
  memdir config list --show-origin --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runConfigList(a, showOrigin) },
	}
	cmd.Flags().BoolVar(&showOrigin, "show-origin", false, "say where each value came from")
	return cmd
}

// settingJSON is one setting as `config list --json` prints it.
type settingJSON struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Layer  string `json:"layer"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Locked bool   `json:"locked,omitempty"`
}

func runConfigList(a *app, showOrigin bool) error {
	_, s, _, err := a.project()
	if err != nil {
		return err
	}
	values := s.All()
	if a.json {
		out := make([]settingJSON, 0, len(values))
		for _, v := range values {
			out = append(out, settingJSON{Key: v.Key, Value: v.Value, Layer: v.Origin.Layer.String(),
				File: v.Origin.File, Line: v.Origin.Line, Locked: v.Origin.Locked})
		}
		return a.writeJSON(out)
	}
	tw := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
	for _, v := range values {
		if showOrigin {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Key, v.Value, v.Origin)
		} else {
			fmt.Fprintf(tw, "%s\t%s\n", v.Key, v.Value)
		}
	}
	return tw.Flush()
}

func newConfigGetCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "get KEY",
		Short: "Print one setting's value",
		Long: `Print the effective value of one setting (empty when unset).

Examples:
  memdir config get mode
  memdir config get dream.schedule --json`,
		Args: exactArgs(1, "one setting name"),
		RunE: func(_ *cobra.Command, args []string) error { return runConfigGet(a, args[0]) },
	}
}

func runConfigGet(a *app, key string) error {
	if _, ok := settings.Info(key); !ok {
		return &usageError{msg: (&settings.UnknownKeyError{Key: key}).Error()}
	}
	_, s, _, err := a.project()
	if err != nil {
		return err
	}
	v, _ := s.Lookup(key)
	if a.json {
		return a.writeJSON(settingJSON{Key: key, Value: v.Value, Layer: v.Origin.Layer.String(),
			File: v.Origin.File, Line: v.Origin.Line, Locked: v.Origin.Locked})
	}
	fmt.Fprintln(a.out, v.Value)
	return nil
}

func newConfigSetCmd(a *app) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "set [--scope user|project|local] KEY VALUE",
		Short: "Change a setting in one layer's file",
		Long: `Write KEY: VALUE into the settings file of a scope, keeping every other
key, comment and the order of the file: user (<home>/config.yaml, the
default), project (<root>/.memdir.yaml, committed) or local
(<root>/.memdir.local.yaml, not committed). A key locked by the managed
file cannot be set.

Examples:
  memdir config set mode log
  memdir config set --scope project dir .memdir
  memdir config set --scope local dream.min_hours 12`,
		Args: exactArgs(2, "KEY VALUE"),
		RunE: func(_ *cobra.Command, args []string) error { return runConfigSet(a, scope, args[0], args[1]) },
	}
	cmd.Flags().StringVar(&scope, "scope", "user", "user, project or local")
	return cmd
}

func runConfigSet(a *app, scope, key, value string) error {
	layer, err := settings.ParseLayer(scope)
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	if err := settings.CheckScope(layer, key); err != nil {
		return &usageError{msg: err.Error()}
	}
	if err := settings.Validate(key, value); err != nil {
		return &usageError{msg: err.Error()}
	}
	_, s, _, err := a.project()
	if err != nil {
		return err
	}
	if s.Locked(key) {
		v, _ := s.Lookup(key)
		return usagef("%s is locked by the managed settings (%s); ask your administrator", key, v.Origin)
	}
	if key == "context.agent" {
		if _, err := instructions.Lookup(value, s.Profiles()); err != nil {
			return &usageError{msg: err.Error()}
		}
	}
	path, err := scopeFile(s, layer, scope)
	if err != nil {
		return err
	}
	if err := settings.Set(path, key, value); err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(settingJSON{Key: key, Value: value, Layer: layer.String(), File: path})
	}
	fmt.Fprintf(a.out, "set %s in %s\n", key, path)
	if key == "mode" && layer == settings.User {
		a.modeDefaultNote()
	}
	return nil
}

// modeDefaultNote says, after the user's mode changed, that it is a
// default for new memory when this project's memory keeps another.
func (a *app) modeDefaultNote() {
	ws, err := a.workspace()
	if err != nil {
		return
	}
	c, err := modeOf(ws.Settings, ws.Loc.Dir)
	if err == nil && c.Recorded != "" {
		fmt.Fprintf(a.out, "this is the default for new memory; this project stays in mode %s (from %s): memdir init --mode changes it\n", c.Mode, c.From)
	}
}
