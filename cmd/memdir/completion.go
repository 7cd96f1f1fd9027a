package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/agentsetup"
	"github.com/memdir/memdir/typesx"
)

// completions gives the shells (bash, zsh, fish, powershell: cobra's
// `memdir completion SHELL`) what memdir knows: topic names for the
// commands that take one, the four types, the agents setup knows, and the
// values of flags that take one of a few words. Completion never writes
// and never fails: a project it cannot read completes nothing.
func (a *app) completions(root *cobra.Command) {
	for _, name := range []string{"show", "edit", "rm", "restore", "history"} {
		if c := sub(root, name); c != nil && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = a.completeTopics
		}
	}
	if c := sub(root, "add"); c != nil {
		c.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return typeCompletions(), cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
	}
	if c := sub(root, "setup"); c != nil && c.ValidArgsFunction == nil {
		c.ValidArgsFunction = fixed(agentsetup.Agents...)
	}
	flagValues(root, "type", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return typeCompletions(), cobra.ShellCompDirectiveNoFileComp
	})
	flagValues(root, "scope", fixed("user", "project", "local"))
	flagValues(root, "mode", fixed("live", "log"))
	flagValues(root, "sort", fixed("type", "name", "modified", "created"))
}

// sub is root's subcommand called name, or nil.
func sub(root *cobra.Command, name string) *cobra.Command {
	for _, c := range root.Commands() {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

// flagValues completes the flag called name of every command that has
// one as complete does, unless the command completes it already.
func flagValues(root *cobra.Command, name string, complete cobra.CompletionFunc) {
	for _, c := range root.Commands() {
		if f := c.Flags().Lookup(name); f != nil && f.Value.Type() != "bool" {
			if _, ok := c.GetFlagCompletionFunc(name); !ok {
				_ = c.RegisterFlagCompletionFunc(name, complete)
			}
		}
		flagValues(c, name, complete)
	}
}

// fixed completes one of words.
func fixed(words ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

func typeCompletions() []cobra.Completion {
	out := make([]cobra.Completion, 0, len(typesx.Types))
	for _, t := range typesx.Types {
		out = append(out, string(t))
	}
	return out
}

// completeTopics completes the topics of this project's memory, by file
// name without .md (every command that takes a topic takes that), and
// for restore the topics rm keeps in the trash too.
func (a *app) completeTopics(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 && cmd.Name() != "rm" {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ws, err := a.workspace()
	if err != nil || !ws.Dir.Exists() {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	files, _ := ws.Dir.TopicFiles()
	if cmd.Name() == "restore" {
		files = append(files, ws.Dir.TrashedFiles()...)
	}
	var out []cobra.Completion
	for _, f := range files {
		if name := strings.TrimSuffix(f, ".md"); strings.HasPrefix(name, toComplete) {
			out = append(out, name)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
