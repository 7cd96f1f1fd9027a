package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/memdir/memdir/tokenize"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownSubcommand is the Args of a command that only groups others
// (`config`, `remote`, ...): no argument prints its help, an argument
// that names no subcommand is a usage error (exit 2), never help and 0.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if !cmd.HasParent() {
		return usagef("unknown command %q%s; see `memdir --help`", args[0], suggest(cmd, args[0]))
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
	// The nearest spelling first, and at most two of them.
	sort.SliceStable(s, func(i, j int) bool { return tokenize.EditDistance(s[i], name) < tokenize.EditDistance(s[j], name) })
	if len(s) > 2 && tokenize.EditDistance(s[0], name) < tokenize.EditDistance(s[1], name) {
		s = s[:1]
	}
	return fmt.Sprintf(" (did you mean %s?)", strings.Join(s[:min(len(s), 2)], " or "))
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

// flagError turns what pflag says about a bad flag into one line that
// names the flag, says what it wants and where help is, without Go's
// parser text ("strconv.ParseInt: parsing ...").
func flagError(cmd *cobra.Command, err error) error {
	help := fmt.Sprintf("; see `%s --help`", cmd.CommandPath())
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		f := bad.GetFlag()
		return usagef("--%s %q: want %s%s", f.Name, bad.GetValue(), wantOf(f.Value.Type()), help)
	}
	var need *pflag.ValueRequiredError
	if errors.As(err, &need) {
		f := need.GetFlag()
		return usagef("--%s needs a value (%s)%s", f.Name, wantOf(f.Value.Type()), help)
	}
	if strings.HasPrefix(err.Error(), "bad flag syntax: ") {
		return &usageError{msg: err.Error()} // quietArgs words it
	}
	return usagef("%v%s", err, help)
}

// wantOf says what a flag of a pflag type takes.
func wantOf(typ string) string {
	switch {
	case strings.HasPrefix(typ, "int"), strings.HasPrefix(typ, "uint"), typ == "count":
		return "a whole number"
	case strings.HasPrefix(typ, "float"):
		return "a number"
	case typ == "bool":
		return "true or false"
	case typ == "duration":
		return "a duration such as 90s, 15m or 2h"
	case strings.HasSuffix(typ, "Slice"), strings.HasSuffix(typ, "Array"):
		return "a list"
	}
	return "a " + typ
}

// newHelpCmd is `memdir help [COMMAND...]`: the help of a command, and a
// usage error (exit 2) for a command that does not exist.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Print the help of any command, as `memdir COMMAND --help` does.",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 || cmd == nil {
				name := strings.Join(args, " ")
				return usagef("no command %q%s; see `memdir --help`", name, suggest(root, args[0]))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
		ValidArgsFunction: func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, c := range cmd.Commands() {
				if c.IsAvailableCommand() && strings.HasPrefix(c.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(c.Name(), c.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
	}
}
