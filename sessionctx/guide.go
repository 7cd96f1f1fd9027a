package sessionctx

import (
	"strings"

	"github.com/memdir/memdir/typesx"
)

// Guide is the short note on keeping memory that precedes the index: where
// this project's memory is, what each type is for, how to save in the
// directory's mode, what not to save, and how to treat what is remembered.
// today (YYYY-MM-DD, from the caller's clock) is the example of an
// absolute date.
func Guide(dir, mode, today string) string {
	var b strings.Builder
	b.WriteString("# Your memory for this project\n\n")
	b.WriteString("You keep notes across sessions as markdown files in " + dir + ".\n")
	b.WriteString("MEMORY.md below is their index; open a topic file when its line looks relevant.\n\n")
	b.WriteString("Each memory has one type:\n")
	for _, t := range typesx.Types {
		b.WriteString("- " + t.String() + ": " + t.Meaning() + "\n")
	}
	b.WriteString("\nHow to save:\n")
	if mode == "log" {
		b.WriteString("- Run `memdir add TYPE \"Name\" \"text\"`; it appends to today's log under logs/.\n")
		b.WriteString("- Do not edit MEMORY.md or topic files yourself: a nightly dream distills the logs into them.\n")
	} else {
		b.WriteString("- Run `memdir add TYPE \"Name\" \"text\"` (add --why and --how for feedback and project facts);\n")
		b.WriteString("  it updates a matching topic instead of duplicating it, and keeps MEMORY.md in step.\n")
		b.WriteString("- Or write <type>_<name>.md with name, description and type frontmatter and add a line\n")
		b.WriteString("  `- [Name](file.md) — one-line description` to MEMORY.md.\n")
	}
	b.WriteString("\n" + Rules("`memdir rm NAME`", today))
	return b.String()
}

// Rules is the part of the guide every way of keeping memory shares (the
// session-start context, the MCP tools): what not to save and how to treat
// what is remembered. forget says how to remove a memory; today is the
// example of an absolute date (YYYY-MM-DD when empty).
func Rules(forget, today string) string {
	if today == "" {
		today = "YYYY-MM-DD"
	}
	return `What not to save: anything the code, the git history or the instruction files
already say; passwords, tokens and other secrets; one-off details of the task
at hand.

How to use what you remember:
- Write dates as absolute dates (` + today + `), never "next Thursday".
- A remembered file, function or flag may have changed since: check that it
  still exists before you rely on it.
- When the person says a memory is wrong or to ignore it, stop using it and
  update or remove it (` + forget + `).
`
}
