package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// unknownSubcommand is the Args of a command that only groups others
// (`config`, `remote`, ...): no argument prints its help, an argument
// that names no subcommand is a usage error (exit 2), never help and 0.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return usagef("unknown command %q for %s%s; see `%s --help`", args[0], cmd.CommandPath(), suggest(cmd, args[0]), cmd.CommandPath())
}

// suggest is cobra's "did you mean" for name among cmd's subcommands, on
// the same line: ", did you mean list?".
func suggest(cmd *cobra.Command, name string) string {
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	s := cmd.SuggestionsFor(name)
	if len(s) == 0 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
}

// groupsOnly makes every command that only groups subcommands refuse an
// unknown subcommand (exit 2) and print its help when given none.
func groupsOnly(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = unknownSubcommand
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
		groupsOnly(c)
	}
}
