package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/reldate"
	"github.com/memdir/memdir/typesx"
)

type addOptions struct {
	file        string
	description string
	why, how    string
	private     bool
	tags        []string
	forceNew    bool
	allowSecret bool
	team        bool
	expires     string
}

func newAddCmd(a *app) *cobra.Command {
	var opts addOptions
	cmd := &cobra.Command{
		Use:   "add TYPE NAME [TEXT...]",
		Short: "Remember something",
		Long: `Record a memory of TYPE (` + typesx.Names() + `) called NAME.

In live mode the topic file <type>_<name>.md is written and MEMORY.md
updated at once; in log mode one entry is appended to today's daily log.
A topic with the same type and name (or the same name spelled another
way: case, hyphens, accents, one mistyped letter), or a near-duplicate
name and description of the same type, is updated instead of duplicated,
and add says which topic it joined (--new forces a new topic). File names
spell other alphabets in ASCII ("Müller contact" is muller_contact). Text that looks like a credential is refused.
In live mode, relative dates ("next Thursday") are written as the dates
they mean today. --expires marks a fact that goes stale on a date (the
dream then archives the topic).

With --team the memory goes to the project's team memory (.memdir/team in
the project, committed with it and seen by everyone who works in it; see
docs/team.md), always as a topic file; --private is refused there.

Examples:
  memdir add feedback "Testing policy" "Integration tests hit a real database, never mocks." \
      --why "a mocked suite hid a broken migration" --how "use the db fixture in tests/integration"
  memdir add project "Release freeze" -d "Merge freeze for the mobile cut" -f notes.md
  memdir add project "Staging outage" "Staging is down for the migration." --expires 2026-12-01
  git log -1 --format=%B | memdir add reference "Deploy runbook" -f -
  memdir add --team reference "Deploy runbook" "Deploys go through make deploy; see docs/deploy.md."`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usagef("add takes TYPE NAME [TEXT...]; see `memdir add --help`")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return runAdd(a, opts, args[0], args[1], strings.Join(args[2:], " "))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.file, "file", "f", "", "read the text from FILE (- for standard input)")
	f.StringVarP(&opts.description, "description", "d", "", "one-line description for the index (default: the text's first sentence)")
	f.StringVar(&opts.why, "why", "", "why this matters (feedback and project facts)")
	f.StringVar(&opts.how, "how", "", "how to apply it")
	f.BoolVar(&opts.private, "private", false, "never put this topic into context or the index")
	f.StringArrayVar(&opts.tags, "tag", nil, "tag the topic (repeatable)")
	f.BoolVar(&opts.forceNew, "new", false, "always create a new topic, even when a similar one exists")
	f.BoolVar(&opts.allowSecret, "allow-secret", false, "record text that looks like a credential")
	f.BoolVar(&opts.team, "team", false, "write to the project's team memory, committed with the project")
	f.StringVar(&opts.expires, "expires", "", "the date the fact goes stale (2026-12-01, or \"next Friday\")")
	return cmd
}

func runAdd(a *app, opts addOptions, typeArg, name, text string) error {
	t, err := typesx.Parse(typeArg)
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	if opts.file != "" {
		if text != "" {
			return usagef("give the text as arguments or with -f, not both")
		}
		if text, err = a.readText(opts.file); err != nil {
			return err
		}
	}
	req := memdir.AddRequest{
		Type: t, Name: name, Text: text, Description: opts.description,
		Why: opts.why, How: opts.how, Private: opts.private, Tags: opts.tags,
		New: opts.forceNew, AllowSecret: opts.allowSecret, Expires: a.expiryDate(opts.expires),
	}
	if opts.team && opts.private {
		return usagef("--team and --private: team memory is shared with everyone in the project; add a private memory without --team")
	}
	if opts.team && opts.allowSecret {
		return usagef("--team and --allow-secret: a credential never goes into team memory, which is committed with the project")
	}
	if err := req.Validate(); err != nil {
		return err
	}
	ws, d, existed, err := a.addDest(opts.team)
	if err != nil {
		return err
	}
	res, err := d.Add(req)
	if err != nil {
		return err
	}
	a.warnOutsideRepo(ws, existed)
	if res.Action != memdir.Logged {
		a.warnPressure(d, res.Pressure)
	}
	if a.json && opts.team {
		return a.writeJSON(teamAddJSON{AddResult: res, Scope: scopeTeam})
	}
	if a.json {
		return a.writeJSON(res)
	}
	switch {
	case res.Action == memdir.Logged:
		fmt.Fprintf(a.out, "logged to %s\n", res.Log)
	case res.MatchedBy == "spelling" && res.Action != memdir.Logged:
		fmt.Fprintf(a.out, "%s %s (joined the topic %q: the same name spelled another way; pass --new for a separate one)\n", res.Action, res.File, res.Name)
	case res.MatchedBy == "similar" && res.Action == memdir.Updated:
		fmt.Fprintf(a.out, "updated %s (a similar %s topic; pass --new for a separate one)\n", res.File, t)
	case res.Action == memdir.Unchanged:
		fmt.Fprintf(a.out, "unchanged %s (it already says that)\n", res.File)
	default:
		fmt.Fprintf(a.out, "%s %s\n", res.Action, res.File)
	}
	if w := res.Where(); w != "" {
		fmt.Fprintf(a.out, "%s\n", w)
	}
	if opts.team && res.Action != memdir.Unchanged {
		fmt.Fprintf(a.out, "team memory: commit %s with the project (or run memdir sync, with an accepted team remote) to share it\n", d.Path)
	}
	return nil
}

// teamAddJSON is an add's result in team memory, marked as such.
type teamAddJSON struct {
	memdir.AddResult
	Scope string `json:"scope"`
}

// readText reads the text of a memory from a file or, for "-", stdin.
func (a *app) readText(name string) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(a.in, memdir.MaxBodyBytes*4))
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return "", usagef("read the text: %v", err)
	}
	return string(data), nil
}

// expiryDate is the date --expires names: a date as given, or a relative
// one ("next Friday") made absolute against today. Anything else is left
// for Validate to refuse.
func (a *app) expiryDate(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	if abs, changes := reldate.Rewrite(v, a.now()); len(changes) == 1 && changes[0].From == v {
		for _, w := range strings.Fields(abs) {
			if _, err := time.Parse(time.DateOnly, w); err == nil {
				return w
			}
		}
	}
	return v
}

// addDest is where an add writes: the personal memory (and its
// workspace), or with team the project's team memory (no workspace); and
// whether that memory existed before this add.
func (a *app) addDest(team bool) (*workspace, *memdir.Dir, bool, error) {
	if team {
		d, err := a.addTarget(true)
		return nil, d, err == nil && d.Exists(), err
	}
	ws, err := a.workspace()
	if err != nil {
		return nil, nil, false, err
	}
	existed := ws.Dir.Exists()
	return ws, ws.Dir, existed, ws.Claim()
}
