package dream

import (
	"fmt"
	"strings"
	"time"

	"github.com/memdir/memdir/memdir"
)

// Report says what one dream did (or, for a dry run, would do).
type Report struct {
	Time        time.Time `json:"time"`
	Dir         string    `json:"dir"`
	Distiller   string    `json:"distiller"`
	DryRun      bool      `json:"dry_run,omitempty"`
	EntriesRead int       `json:"entries_read"`
	Created     []string  `json:"created"`
	Updated     []string  `json:"updated"`
	Archived    []string  `json:"archived"`
	// Duplicates are entries dropped because a topic already said them.
	Duplicates []Duplicate `json:"duplicates"`
	// Replaced are older facts a newer entry replaced.
	Replaced []Replacement `json:"replaced"`
	// Dates are the relative dates rewritten as absolute ones.
	Dates []DateChange `json:"dates_rewritten"`
	// Typed are untyped entries and the type they were given.
	Typed []Typed `json:"typed"`
	// Skipped are entries left out of memory, with why.
	Skipped []Skipped `json:"skipped"`
	// NotIndexed are topics that did not fit in MEMORY.md and are listed in
	// an overflow index instead.
	NotIndexed []string `json:"not_indexed"`
	// Notes are what an external distiller said about its answer.
	Notes []string `json:"notes,omitempty"`
	// Problems are files the dream could not read and left alone.
	Problems []string `json:"problems,omitempty"`
	// File is the report file, relative to the memory directory; "" when
	// nothing changed or for a dry run.
	File string `json:"file,omitempty"`
	// Changed lists the files written, moved or removed.
	Changed []string `json:"changed"`
	// Diff is what a dry run would change, as a unified diff.
	Diff string `json:"diff,omitempty"`
}

// Duplicate is an entry that a topic already held.
type Duplicate struct {
	Entry string `json:"entry"`
	Topic string `json:"topic"`
	Kind  string `json:"kind"` // "exact" or "near"
	Text  string `json:"text"`
}

// Replacement is an older fact a newer entry replaced.
type Replacement struct {
	Topic string `json:"topic"`
	Old   string `json:"old"`
	New   string `json:"new"`
	Entry string `json:"entry"`
}

// DateChange is one relative date made absolute.
type DateChange struct {
	Entry string `json:"entry"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// Typed is an untyped entry and the type the rules gave it.
type Typed struct {
	Entry string `json:"entry"`
	Type  string `json:"type"`
	Rule  string `json:"rule"`
}

// Skipped is an entry that did not go into memory.
type Skipped struct {
	Entry  string `json:"entry"`
	Reason string `json:"reason"`
}

// Changes reports whether the dream changed (or would change) any file.
func (r *Report) Changes() bool { return len(r.Changed) > 0 }

// Message is the one-line summary the change hook (a git commit) gets.
func (r *Report) Message() string {
	return fmt.Sprintf("dream: %d new, %d updated, %d archived", len(r.Created), len(r.Updated), len(r.Archived))
}

// Summary renders the report for a terminal.
func (r *Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s read, %s created, %d updated, %d archived\n",
		r.verb(), memdir.Count(r.EntriesRead, "entry", "entries"), memdir.Count(len(r.Created), "topic"), len(r.Updated), len(r.Archived))
	fmt.Fprintf(&b, "  duplicates dropped: %d\n", len(r.Duplicates))
	fmt.Fprintf(&b, "  dates rewritten: %d\n", len(r.Dates))
	for _, x := range r.Replaced {
		fmt.Fprintf(&b, "  replaced in %s: %q (by %q)\n", x.Topic, x.Old, x.New)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "  skipped %s: %s\n", s.Entry, s.Reason)
	}
	if n := len(r.NotIndexed); n > 0 {
		fmt.Fprintf(&b, "  not in MEMORY.md (listed in overflow indexes): %d topics\n", n)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  distiller: %s\n", n)
	}
	r.footer(&b)
	return b.String()
}

// Brief is the summary without a line per replaced fact or skipped
// entry (`dream --quiet`): the counts, problems, and where the report is.
func (r *Report) Brief() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s read, %s created, %d updated, %d archived, %s replaced, %s skipped\n",
		r.verb(), memdir.Count(r.EntriesRead, "entry", "entries"), memdir.Count(len(r.Created), "topic"), len(r.Updated), len(r.Archived),
		memdir.Count(len(r.Replaced), "fact"), memdir.Count(len(r.Skipped), "entry", "entries"))
	r.footer(&b)
	return b.String()
}

// verb names the run in the first line of a summary.
func (r *Report) verb() string {
	if r.DryRun {
		return "dream (dry run)"
	}
	return "dream"
}

// footer ends a summary: the problems, then where the report is, or that
// nothing changed.
func (r *Report) footer(b *strings.Builder) {
	for _, p := range r.Problems {
		fmt.Fprintf(b, "  problem: %s\n", p)
	}
	switch {
	case r.File != "":
		fmt.Fprintf(b, "report: %s\n", r.File)
	case !r.Changes():
		b.WriteString("nothing changed\n")
	}
}

// Markdown renders the report file.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Dream %s\n\n", r.Time.Format(time.RFC3339))
	fmt.Fprintf(&b, "- distiller: %s\n- entries read: %d\n- topics created: %d\n- topics updated: %d\n- topics archived: %d\n- duplicates dropped: %d\n- dates rewritten: %d\n- facts replaced: %d\n- not in MEMORY.md: %d\n",
		r.Distiller, r.EntriesRead, len(r.Created), len(r.Updated), len(r.Archived), len(r.Duplicates), len(r.Dates), len(r.Replaced), len(r.NotIndexed))
	section(&b, "Created", r.Created, func(s string) string { return s })
	section(&b, "Updated", r.Updated, func(s string) string { return s })
	section(&b, "Archived", r.Archived, func(s string) string { return s })
	section(&b, "Replaced", r.Replaced, func(x Replacement) string {
		return fmt.Sprintf("%s: %q replaced by %q (%s)", x.Topic, x.Old, x.New, x.Entry)
	})
	section(&b, "Duplicates dropped", r.Duplicates, func(x Duplicate) string {
		return fmt.Sprintf("%s (%s duplicate in %s): %q", x.Entry, x.Kind, x.Topic, x.Text)
	})
	section(&b, "Dates rewritten", r.Dates, func(x DateChange) string {
		return fmt.Sprintf("%s: %q -> %q", x.Entry, x.From, x.To)
	})
	section(&b, "Typed", r.Typed, func(x Typed) string {
		rule := x.Rule
		if rule == "" {
			rule = "no rule matched"
		}
		return fmt.Sprintf("%s: %s (%s)", x.Entry, x.Type, rule)
	})
	section(&b, "Skipped", r.Skipped, func(x Skipped) string { return x.Entry + ": " + x.Reason })
	section(&b, "Not in MEMORY.md", r.NotIndexed, func(s string) string { return s })
	section(&b, "Distiller notes", r.Notes, func(s string) string { return s })
	section(&b, "Problems", r.Problems, func(s string) string { return s })
	return b.String()
}

func section[T any](b *strings.Builder, title string, items []T, line func(T) string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## %s\n\n", title)
	for _, it := range items {
		fmt.Fprintf(b, "- %s\n", line(it))
	}
}

// entryRef names an entry in reports: its log file and line.
func entryRef(e Entry) string { return fmt.Sprintf("%s:%d", e.File, e.Line) }
