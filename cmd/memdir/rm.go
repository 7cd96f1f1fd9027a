package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/progress"
)

type rmOptions struct {
	team  bool
	yes   bool
	quiet bool
}

func newRmCmd(a *app) *cobra.Command {
	var opts rmOptions
	cmd := &cobra.Command{
		Use:   "rm NAME|FILE...",
		Short: "Forget a topic (restore brings it back)",
		Long: `Delete a topic file and its line in MEMORY.md. The topic's last version
is kept in the memory directory's trash (.memdir/trash, never committed or
synced), so memdir restore NAME brings it back. With --team, the topic is
one of the project's team memory (commit the removal to share it).

The words of the arguments name one topic ("memdir rm release freeze");
when they do not, and each argument names a topic, each is removed. More
than one topic on a terminal asks first (--yes does not); rm says what it
removed, one line per topic (--quiet: only the count), with a progress
line on a terminal while many go.

Examples:
  memdir rm "Release freeze"
  memdir rm project_release_freeze.md user_role.md --yes
  memdir restore "Release freeze"
  memdir rm --team "Deploy runbook"`,
		Args: topicArgs,
		RunE: func(_ *cobra.Command, args []string) error { return runRm(a, opts, args) },
	}
	cmd.Flags().BoolVar(&opts.team, "team", false, "remove a topic of the project's team memory")
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "remove several topics without asking")
	cmd.Flags().BoolVarP(&opts.quiet, "quiet", "q", false, "say only how many topics were removed")
	return cmd
}

func runRm(a *app, opts rmOptions, args []string) error {
	d, files, err := a.rmTargets(args, opts.team)
	if err != nil {
		return err
	}
	if len(files) > 1 && !opts.yes && a.interactive() {
		ok, err := a.confirm(fmt.Sprintf("remove %d topics: %s?", len(files), strings.Join(files, ", ")))
		if err != nil || !ok {
			return errors.New("nothing removed")
		}
	}
	var out []rmJSON
	bar := progress.New(a.errw, "rm", "topics", len(files))
	defer bar.Done()
	for _, file := range files {
		res, err := d.RemoveTopic(file)
		if err != nil {
			return err
		}
		bar.Add(1)
		out = append(out, rmJSON{Removed: res.File, IndexUpdated: res.IndexUpdated})
		if !a.json && !opts.quiet {
			fmt.Fprintf(a.out, "removed %s\n", file)
		}
	}
	bar.Done()
	if a.json {
		if len(out) == 1 {
			return a.writeJSON(out[0])
		}
		return a.writeJSON(out)
	}
	if opts.quiet {
		fmt.Fprintf(a.out, "removed %s\n", memdir.Count(len(files), "topic"))
	}
	fmt.Fprintf(a.out, "kept in the trash: `memdir restore %s` brings it back\n", strings.TrimSuffix(files[0], ".md"))
	return nil
}

// rmTargets resolves rm's arguments: the topic their words name, else
// one topic per argument when every argument names one.
func (a *app) rmTargets(args []string, team bool) (*memdir.Dir, []string, error) {
	_, d, file, _, err := a.topicIn(topicRef(args), team, false)
	if err == nil || len(args) == 1 || !errors.Is(err, memdir.ErrNotFound) {
		return d, []string{file}, err
	}
	var files []string
	seen := map[string]bool{}
	for _, arg := range args {
		f, ferr := d.Find(arg)
		if ferr != nil {
			return nil, nil, err
		}
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	return d, files, nil
}

// interactive reports whether a person can answer a question: standard
// input and the error stream are terminals.
func (a *app) interactive() bool {
	in, ok := a.in.(*os.File)
	errw, ok2 := a.errw.(*os.File)
	return ok && ok2 && progress.IsTerminal(in) && progress.IsTerminal(errw)
}

// confirm asks question on the error stream and reads a yes or no.
func (a *app) confirm(question string) (bool, error) {
	fmt.Fprintf(a.errw, "%s [y/N] ", question)
	line, err := bufio.NewReader(a.in).ReadString('\n')
	if err != nil && line == "" {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
