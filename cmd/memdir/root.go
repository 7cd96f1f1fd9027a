package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// run builds the command tree afresh, runs it and returns the exit status.
// It is the only place that prints an error.
func run(args []string, in io.Reader, out, errw io.Writer, getenv func(string) string) int {
	now, err := clock(getenv)
	if err != nil {
		fmt.Fprintf(errw, "memdir: %v\n", err)
		return exitCode(err)
	}
	a := &app{in: in, out: out, errw: errw, getenv: getenv, now: now, wall: time.Now}
	root := newRootCmdFor(a, calledCommands(args))
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errw)
	ran := false
	root.PersistentPreRun = func(*cobra.Command, []string) { ran = true }
	err = root.Execute()
	if err == nil {
		return 0
	}
	if !ran {
		// cobra rejected the command line before any command ran.
		// The message may quote an argument: never a key given as text.
		msg := quietArgs(err.Error(), args)
		if !strings.Contains(msg, "--help`") {
			msg += "; see `memdir --help`"
		}
		err = &usageError{msg: msg}
	}
	if err != errFound {
		fmt.Fprintf(errw, "memdir: %v\n", err)
	}
	return exitCode(err)
}

// newRootCmd returns memdir's command tree, every command in it.
func newRootCmd(a *app) *cobra.Command { return newRootCmdFor(a, nil) }

// newRootCmdFor returns memdir's command tree with only the top-level
// commands only names (every one when only is nil): building all 36 with
// their flags is a third of a short command's start-up.
func newRootCmdFor(a *app, only map[string]bool) *cobra.Command {
	root := &cobra.Command{
		Use:   "memdir",
		Short: "Memory for AI coding agents, as plain markdown files",
		Long: `memdir keeps an AI coding agent's memory as markdown files a person can
read, grep, edit and commit: typed topic files (user, feedback, reference,
project) and a MEMORY.md index that agents load at session start.

The memory directory follows from the project's canonical git root (every
worktree of a repo shares one), or from --dir, MEMDIR_DIR or the dir setting.

Examples:
  memdir add feedback "Testing policy" "Integration tests hit a real database."
  memdir list --type feedback
  memdir index`,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate("memdir {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	root.Args = unknownSubcommand
	root.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	root.SetHelpCommand(newHelpCmd(root))
	pf := root.PersistentFlags()
	pf.StringVar(&a.dirFlag, "dir", "", "memory directory to use (overrides MEMDIR_DIR and the dir setting)")
	pf.StringVar(&a.cwdFlag, "cwd", "", "act as if memdir was started in this directory")
	pf.BoolVar(&a.json, "json", false, "print the result as JSON (commands with no result to print refuse it)")
	for _, c := range topCommands {
		if only == nil || only[c.name] {
			root.AddCommand(c.new(a))
		}
	}
	a.addAgentFlags(root)
	if d := sub(root, "daemon"); d != nil {
		d.AddCommand(newDaemonInstallCmd(a))
	}
	root.InitDefaultCompletionCmd()
	groupCommands(root)
	groupsOnly(root)
	a.completions(root)
	return root
}

// topCommands is every top-level command by the name it is called by, in
// the order `memdir --help` lists them within their groups
// (TestTopCommandNames keeps the names true).
var topCommands = []struct {
	name string
	new  func(*app) *cobra.Command
}{
	{"path", newPathCmd},
	{"init", newInitCmd},
	{"add", newAddCmd},
	{"list", newListCmd},
	{"show", newShowCmd},
	{"edit", newEditCmd},
	{"rm", newRmCmd},
	{"resolve", newResolveCmd},
	{"index", newIndexCmd},
	{"lint", newLintCmd},
	{"logs", newLogsCmd},
	{"dream", newDreamCmd},
	{"schedule", newScheduleCmd},
	{"daemon", newDaemonCmd},
	{"config", newConfigCmd},
	{"context", newContextCmd},
	{"instructions", newInstructionsCmd},
	{"watch", newWatchCmd},
	{"history", newHistoryCmd},
	{"diff", newDiffCmd},
	{"restore", newRestoreCmd},
	{"commit", newCommitCmd},
	{"setup", newSetupCmd},
	{"doctor", newDoctorCmd},
	{"import", newImportCmd},
	{"capture", newCaptureCmd},
	{"search", newSearchCmd},
	{"recall", newRecallCmd},
	{"timeline", newTimelineCmd},
	{"stats", newStatsCmd},
	{"trust", newTrustCmd},
	{"mcp", newMCPCmd},
	{"ui", newUICmd},
	{"remote", newRemoteCmd},
	{"sync", newSyncCmd},
	{"version", newVersionCmd},
}

// calledCommands returns the one top-level command args call, the empty
// set for a bare --version, or nil (build every command) when help,
// completion, a suggestion for a mistyped name or anything unclear needs
// them all.
func calledCommands(args []string) map[string]bool {
	version := false
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; {
		case arg == "--dir" || arg == "--cwd":
			i++ // the flag's value
		case arg == "-h" || arg == "--help" || arg == "--":
			return nil
		case arg == "--version" || arg == "-v":
			version = true
		case strings.HasPrefix(arg, "-"):
		default:
			for _, c := range topCommands {
				if c.name == arg {
					return map[string]bool{arg: true}
				}
			}
			return nil
		}
	}
	if version {
		return map[string]bool{}
	}
	return nil
}

// commandGroups sorts `memdir --help` as gh does: what a person does with
// memory first, then wiring agents, sharing, and keeping it in shape.
var commandGroups = []struct {
	id, title string
	names     []string
}{
	{"core", "Core commands:", []string{"init", "add", "show", "list", "edit", "rm", "restore", "search", "timeline", "index", "path", "ui"}},
	{"agents", "Agent commands:", []string{"setup", "doctor", "context", "instructions", "capture", "recall", "mcp", "import"}},
	{"sync", "Sync and history commands:", []string{"remote", "sync", "resolve", "commit", "history", "diff"}},
	{"maintenance", "Maintenance commands:", []string{"lint", "dream", "logs", "schedule", "daemon", "watch", "stats", "config", "trust", "version", "completion", "help"}},
}

// groupCommands puts each of root's commands in its help group; a
// command no group names is listed under "Additional Commands".
func groupCommands(root *cobra.Command) {
	group := map[string]string{}
	for _, g := range commandGroups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
		for _, n := range g.names {
			group[n] = g.id
		}
	}
	root.SetHelpCommandGroupID("maintenance")
	root.SetCompletionCommandGroupID("maintenance")
	for _, c := range root.Commands() {
		if id, ok := group[c.Name()]; ok {
			c.GroupID = id
		}
	}
}
