package mcpserver

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/sessionctx"
	"github.com/memdir/memdir/typesx"
)

// instructions is what the server tells the client at initialize: the
// memory guide of the session-start context, put in terms of the tools.
func instructions() string {
	var b strings.Builder
	b.WriteString(`memdir keeps this project's memory across sessions: typed notes in markdown
files with an index, MEMORY.md (the resource memdir://index, as an agent loads
it at session start).

Look before you ask or redo: memory_search finds memories by words, memory_show
reads one whole, memory_list lists them, memory_timeline shows what changed
around a date, memory_stats counts them. Save with memory_add (it updates a
matching memory instead of duplicating it); remove with memory_forget.
The project's team memory (committed with the project, shared with everyone
who works in it) is searched, shown and listed beside the user's own, each team
memory marked scope: team; memory_add with team: true saves a fact the whole
team needs there (never anything personal, private or secret).
A subagent or role keeps its own memory apart by passing agent_type (and
scope) to memory_add, memory_search, memory_show, memory_forget,
memory_list and memory_timeline.

If this session began without the project's memory (no MEMORY.md in your
context), the agent may not have run memdir's session-start hook: Codex runs
no hook it has not reviewed (codex exec skips them silently). Read
memdir://index now, and tell the person to run ` + "`memdir doctor`" + `.

`)
	b.WriteString(typeGuide())
	b.WriteString("\n")
	b.WriteString(sessionctx.Rules("memory_forget", ""))
	return b.String()
}

// typeGuide lists the memory types and what each is for.
func typeGuide() string {
	var b strings.Builder
	b.WriteString("Each memory has one type:\n")
	for _, t := range typesx.Types {
		fmt.Fprintf(&b, "- %s: %s\n", t, t.Meaning())
	}
	return b.String()
}

// Tool descriptions: each says when to use the tool, since that is what an
// agent reads when it picks one.
var (
	searchDesc = `Search this project's memory: what earlier sessions learned about the user,
their feedback, the project and where to find things. Use it before starting work
on a subject, when the user refers to an earlier decision, and before asking
something the user may already have said. Plain words (all should match),
"exact phrases", prefix*, OR, NOT and parentheses work. Results are compact
rows (file, name, type, date, snippet; scope: team for the project's shared
team memory): read a whole memory with memory_show.
A remembered file, function or flag may have changed since: check that it still
exists before you rely on it.`

	showDesc = `Read one whole memory (its frontmatter and text) by its name or file name, as
memory_search, memory_list or the index give it. Use it when a search row or an
index line looks relevant and you need the detail.`

	listDesc = `List every memory of this project: type, file, name and one-line description
(private ones are marked). Use it to see what is remembered when the index is
not in your context or is cut; memory_search is better for finding one thing.`

	forgetDesc = `Delete a memory (its topic file and its index line) by name or file name. Use
it when the user says a memory is wrong, outdated or should be forgotten; to
correct a memory instead, memory_add it again with the right text.`

	timelineDesc = `Show, oldest first, the memories created or changed (from git history when
memory is in git) and the log entries written around a point in time: a day
such as 2026-11-22, today, yesterday or 7d, or a memory's name (its last
change); default now, 3 days each side (span widens it, e.g. 2w). Use it to
answer "what did we decide last week" or to see what else happened around a
change.`

	statsDesc = `Counts about this project's memory: memories per type, the index against its
load caps (200 lines, 25,000 bytes), private and expired memories, log entries
waiting for a dream, and the search index's state.`
)

// addDesc teaches what to save and what not to, from the memory guide.
func addDesc() string {
	return `Remember something for future sessions of this project. Save what a new
session would need and could not get from the code, the git history or the
instruction files: who the user is and how they work, feedback on how to do the
work (with why), project facts and decisions (with dates written as dates), and
where things live outside the repository.

` + typeGuide() + `
A memory with the same type and name, or a near-duplicate name and description
of the same type, is updated instead of duplicated. Text inside
<private>...</private> is never stored, and text that looks like a credential is
refused. In log mode the memory goes to today's daily log and a dream files it.

` + sessionctx.Rules("memory_forget", "")
}
