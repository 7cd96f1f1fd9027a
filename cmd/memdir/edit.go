package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/progress"
	"github.com/memdir/memdir/secrets"
)

type editOptions struct {
	allowSecret bool
	team        bool
}

func newEditCmd(a *app) *cobra.Command {
	var opts editOptions
	cmd := &cobra.Command{
		Use:   "edit NAME|FILE",
		Short: "Edit a topic in $EDITOR, then validate and re-index it",
		Long: `Open a copy of the topic in $VISUAL or $EDITOR (else, on a terminal,
sensible-editor, nano or vi; with no terminal and neither variable set,
edit refuses and says so). When the editor exits, the copy is validated (frontmatter, secrets) and, if good, replaces
the topic with a fresh modified time and an updated MEMORY.md line. A copy
that does not validate changes nothing and is kept for you to fix. With
--team, the topic is one of the project's team memory; a credential is
refused there even with --allow-secret, and so is private: true.

Examples:
  memdir edit "Testing policy"
  EDITOR="code --wait" memdir edit feedback_testing_policy.md
  memdir edit --team "Deploy runbook"`,
		Args: topicArgs,
		RunE: func(_ *cobra.Command, args []string) error { return runEdit(a, opts, topicRef(args)) },
	}
	cmd.Flags().BoolVar(&opts.allowSecret, "allow-secret", false, "accept text that looks like a credential")
	cmd.Flags().BoolVar(&opts.team, "team", false, "edit a topic of the project's team memory")
	return cmd
}

func runEdit(a *app, opts editOptions, ref string) error {
	if opts.team && opts.allowSecret {
		return usagef("--team and --allow-secret: a credential never goes into team memory, which is committed with the project")
	}
	_, d, file, _, err := a.topicIn(ref, opts.team, false)
	if err != nil {
		return err
	}
	editor, err := a.editor()
	if err != nil {
		return err
	}
	orig, err := atomicfile.ReadInside(d.Path, file)
	if err != nil {
		return err
	}
	draftRel := filepath.Join(memdir.StateDir, "edit")
	draftDir := filepath.Join(d.Path, draftRel)
	if err := atomicfile.MkdirAllInside(d.Path, draftRel, 0o755); err != nil {
		return err
	}
	draft := filepath.Join(draftDir, file)
	if err := atomicfile.WriteInside(d.Path, filepath.Join(draftRel, file), orig, atomicfile.Options{Perm: 0o600}); err != nil {
		return err
	}
	if err := a.runEditorWith(editor, draft); err != nil {
		return fmt.Errorf("%w; your copy is kept at %s", err, draft)
	}
	edited, err := os.ReadFile(draft)
	if err != nil {
		return err
	}
	if bytes.Equal(edited, orig) {
		dropDraft(draft)
		if a.json {
			r := memdir.Replaced{}
			r.Topic, _ = memdir.ParseTopic(file, orig)
			return a.writeJSON(topicWrite("unchanged", file, r))
		}
		fmt.Fprintf(a.out, "unchanged %s\n", file)
		return nil
	}
	if found := secrets.Scan(string(edited)); len(found) > 0 && !opts.allowSecret {
		return usagef("%s:%d: looks like %s: secrets never go into memory; nothing was changed and your copy is kept at %s", file, found[0].Line, memdir.WithArticle(found[0].Kind), draft)
	}
	if opts.team {
		if t, perr := memdir.ParseTopic(file, edited); perr == nil && t.Private {
			return usagef("%s: private: true in team memory, which everyone in the project sees; nothing was changed and your copy is kept at %s", file, draft)
		}
	}
	res, err := d.Replace(file, orig, edited)
	if err != nil {
		if memdir.IsInput(err) {
			return usagef("%v; nothing was changed and your copy is kept at %s", err, draft)
		}
		return err
	}
	dropDraft(draft)
	if a.json {
		return a.writeJSON(topicWrite("updated", file, res))
	}
	fmt.Fprintf(a.out, "updated %s\n", file)
	return nil
}

// dropDraft removes an edit's copy and, when no other edit's copy is
// kept there, the drafts directory.
func dropDraft(draft string) {
	_ = os.Remove(draft)
	_ = os.Remove(filepath.Dir(draft)) // fails, as it should, while not empty
}

// editor is the command that edits a file: $VISUAL, else $EDITOR, else,
// when standard input is a terminal, the first of sensible-editor, nano
// and vi found on PATH. With no terminal and neither variable set no
// editor can run, and the error says what to set.
func (a *app) editor() (string, error) {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(a.getenv(v)); e != "" {
			return e, nil
		}
	}
	if f, ok := a.in.(*os.File); !ok || !progress.IsTerminal(f) {
		return "", usagef("no editor can run here: standard input is not a terminal and neither VISUAL nor EDITOR is set; set EDITOR (EDITOR=\"code --wait\", say) or edit the file by hand")
	}
	for _, e := range []string{"sensible-editor", "nano", "vi"} {
		if _, err := exec.LookPath(e); err == nil {
			return e, nil
		}
	}
	return "", usagef("no editor found (tried sensible-editor, nano, vi): set EDITOR")
}

// runEditorWith runs editor on path through the shell.
func (a *app) runEditorWith(editor, path string) error {
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "sh", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = a.in, a.out, a.errw
	if a.json {
		cmd.Stdout = a.errw // standard output carries the one JSON result
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("editor %q: %w", editor, err)
	}
	return nil
}
