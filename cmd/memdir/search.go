package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/embed"
	"github.com/memdir/memdir/mcpserver"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/progress"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/typesx"
)

type searchOptions struct {
	types          []string
	tags           []string
	since, until   string
	limit          int
	includePrivate bool
	prefix         bool
	color          string
}

func newSearchCmd(a *app) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Find memories by what they say, best first",
		Long: `Search every topic (name, description, tags and body) and the daily-log
entries no dream has distilled yet, of your memory and of the project's team
memory (each team result marked "(team)", "scope": "team" in JSON; see
docs/team.md), and print the best matches first: one
row each with type, file, name, date and a snippet, its matched words in
colour on a terminal (--color; NO_COLOR turns auto off). "memdir show FILE"
prints a whole topic. Nothing found: no output and exit status 1, as grep
("[]" with --json).

Query language:
  deploy staging       memories with both words (when none has both, either)
  "merge freeze"       the words in this order
  deploy*              words that start so (deploys, deployment)
  kafka OR rabbitmq    either
  deploy NOT staging   deploy, without staging (also: deploy -staging)
  (a OR b) c           parentheses group
Case and accents are ignored (Muller finds Müller), English words match
their other forms (configuring finds configuration), identifiers match whole
and by parts (api-latency, MAX_RETRIES, snake_case), and questions work:
"who owns billing". A word no memory has is read as the near spellings
memory has (grafna finds Grafana, pnmp finds pnpm), below exact matches.
Quote phrases for the shell: memdir search '"a b"'.

Ranking: relevance (BM25F: name counts most, then description, tags, body),
a mild fade with age (never for user and feedback topics; reference topics
by half over a year, project topics over 90 days, log entries over 7 days)
and a small boost for memories recalled often; a memory whose name is the
query always comes first. Private topics are left out unless asked for.

The first search builds the index from every file; on a terminal, a build
that takes over a second shows its progress on standard error.

Examples:
  memdir search kafka topic naming
  memdir search 'deploy* NOT staging' --type project --since 30d
  memdir search '"real database"' --json
  memdir search --prefix deploy runb`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("search takes a query, e.g. memdir search deploy checklist; see `memdir search --help`")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd.Context(), a, opts, strings.Join(args, " "))
		},
	}
	f := cmd.Flags()
	f.StringSliceVarP(&opts.types, "type", "t", nil, "only memories of this type (repeat or use commas)")
	f.StringArrayVar(&opts.tags, "tag", nil, "only topics with this tag (repeatable: all must be there)")
	f.StringVar(&opts.since, "since", "", "changed on or after this day (YYYY-MM-DD, today, yesterday or Nd)")
	f.StringVar(&opts.until, "until", "", "changed on or before this day (YYYY-MM-DD, today, yesterday or Nd)")
	f.IntVarP(&opts.limit, "limit", "n", search.DefaultLimit, "at most this many results")
	f.BoolVar(&opts.includePrivate, "include-private", false, "include private topics")
	f.BoolVar(&opts.prefix, "prefix", false, "read the last word as the start of a word (kafk finds kafka), as while typing")
	f.StringVar(&opts.color, "color", "auto", "colour matched words: auto (on a terminal, unless NO_COLOR is set), always or never")
	return cmd
}

func runSearch(ctx context.Context, a *app, opts searchOptions, text string) error {
	q, err := searchQuery(a, opts, text)
	if err != nil {
		return err
	}
	color, err := useColor(opts.color, a.out, a.getenv)
	if err != nil {
		return err
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	team := a.teamRead(ws)
	if !ws.Dir.Exists() && team == nil {
		return usagef("no memory yet at %s: `memdir add` or `memdir init` creates it", ws.Loc.Dir)
	}
	cfg, semantic := embed.Configured(ws.Settings, a.getenv)
	// The first search builds the index from every file: on a terminal,
	// a build that takes over a second shows its progress.
	bar := progress.New(a.errw, "search index", "files", 0)
	defer bar.Done()
	indexOf := func(d *memdir.Dir) *search.Index {
		ix := search.Open(d).WithProgress(bar.Set)
		if semantic {
			return ix.WithSemantic(embed.New(d, cfg, a.errw))
		}
		return ix
	}
	var hits []mcpserver.Hit
	if ws.Dir.Exists() {
		if hits, err = searchDir(ctx, indexOf(ws.Dir), q, "", hits); err != nil {
			return err
		}
	}
	if team != nil {
		if hits, err = searchDir(ctx, indexOf(team.Dir), q, scopeTeam, hits); err != nil {
			return err
		}
	}
	bar.Done()
	hits = mcpserver.MergeHits(hits, q.Limit)
	if a.json {
		if err := a.writeJSON(hits); err != nil || len(hits) > 0 {
			return err
		}
		return errFound // exit 1, as grep does when nothing matches
	}
	if len(hits) == 0 {
		return errFound
	}
	for _, h := range hits {
		fmt.Fprintln(a.out, hitRow(h, color))
	}
	return nil
}

// searchDir searches one memory directory's index and appends its hits,
// marked with scope, to out.
func searchDir(ctx context.Context, ix *search.Index, q search.Query, scope string, out []mcpserver.Hit) ([]mcpserver.Hit, error) {
	hits, err := ix.Search(ctx, q)
	return mcpserver.Scoped(out, hits, scope), err
}

// searchQuery checks the flags and builds the query.
func searchQuery(a *app, opts searchOptions, text string) (search.Query, error) {
	q := search.Query{Text: text, Tags: opts.tags, IncludePrivate: opts.includePrivate, Limit: opts.limit, Prefix: opts.prefix}
	if opts.limit < 1 || opts.limit > search.MaxLimit {
		return q, usagef("--limit %d: give a number from 1 to %d", opts.limit, search.MaxLimit)
	}
	for _, s := range opts.types {
		t, err := typesx.Parse(s)
		if err != nil {
			return q, usagef("--type: %v", err)
		}
		q.Types = append(q.Types, t)
	}
	for _, tag := range opts.tags {
		if strings.TrimSpace(tag) == "" {
			return q, usagef("--tag needs a tag, e.g. --tag deploy")
		}
	}
	var err error
	if q.Since, err = logDate("--since", opts.since, a.now()); err != nil {
		return q, err
	}
	if q.Until, err = logDate("--until", opts.until, a.now()); err != nil {
		return q, err
	}
	if q.Since != "" && q.Until != "" && q.Since > q.Until {
		return q, usagef("--since %s is after --until %s", q.Since, q.Until)
	}
	return q, nil
}

// rowWidth is the most a result row takes, in characters.
const rowWidth = 160

// hitRow is one result as a row: type, file (#entry for a log entry),
// name ("(team)" after a team memory's), date and as much snippet as fits,
// its matched words in colour when color is set.
func hitRow(h mcpserver.Hit, color bool) string {
	typ, file, date := string(h.Type), h.File, h.Modified.Format("2006-01-02")
	if typ == "" {
		typ = "-"
	}
	if h.Kind == "log" {
		file = fmt.Sprintf("%s#%d", h.File, h.Entry)
		date = h.Day
	}
	name := search.TrimSnippet(strings.Join(strings.Fields(h.Name), " "), 40)
	if h.Scope == scopeTeam {
		name += " (team)"
	}
	head := fmt.Sprintf("%-9s  %s  %s  %s", typ, file, name, date)
	room := rowWidth - utf8.RuneCountInString(head) - 2
	if room < 12 || h.Snippet == "" {
		return search.TrimSnippet(head, rowWidth)
	}
	return head + "  " + marks(search.TrimSnippet(h.Snippet, room), color)
}

// Colour of a matched word: bold red, as grep marks a match.
const (
	colorMatch = "\x1b[1;31m"
	colorReset = "\x1b[0m"
)

// marks turns a snippet's **word** marks into colour, or drops them.
func marks(s string, color bool) string {
	var b strings.Builder
	on := false
	for {
		i := strings.Index(s, "**")
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+2:]
		if color && on {
			b.WriteString(colorReset)
		} else if color {
			b.WriteString(colorMatch)
		}
		on = !on
	}
	b.WriteString(s)
	if color && on {
		b.WriteString(colorReset)
	}
	return b.String()
}

// useColor reads --color: always, never, or auto (colour when out is a
// terminal, NO_COLOR is unset or empty and TERM is not dumb).
func useColor(mode string, out io.Writer, getenv func(string) string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb" && isTerminalWriter(out), nil
	}
	return false, usagef("--color %q: use auto, always or never", mode)
}

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && progress.IsTerminal(f)
}
