package main

import (
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
)

// What the write commands print with --json: one object on standard
// output, written once the work is done, so a command that fails prints
// its one error line on stderr and no JSON at all. add prints
// memdir.AddResult, dream its dream.Report, setup, trust and watch --once
// their own reports, and config set a settingJSON; the shapes here are the
// others'. Commands with no result to give (daemon, mcp, capture, a
// running watch) refuse --json with exit 2.

// topicWriteJSON is what edit and restore print: the topic written and
// whether its index line changed.
type topicWriteJSON struct {
	Action       string `json:"action"` // "updated", "restored" or "unchanged"
	File         string `json:"file"`
	Type         string `json:"type,omitempty"`
	Name         string `json:"name,omitempty"`
	IndexUpdated bool   `json:"index_updated"`
	// From is the commit a restored topic was taken from.
	From *memgit.Commit `json:"from,omitempty"`
}

// topicWrite describes a topic that Replace wrote.
func topicWrite(action, file string, r memdir.Replaced) topicWriteJSON {
	out := topicWriteJSON{Action: action, File: file, IndexUpdated: r.IndexUpdated}
	if r.Topic != nil {
		out.Type, out.Name = string(r.Topic.Type), r.Topic.Name
	}
	return out
}

// rmJSON is what rm prints; "removed" is a file name, as in the MCP
// tool memory_forget's answer.
type rmJSON struct {
	Removed      string `json:"removed"`
	IndexUpdated bool   `json:"index_updated"`
}

// commitJSON is what commit prints; Committed is false, and the rest
// empty, when memory was already as HEAD has it.
type commitJSON struct {
	Committed bool     `json:"committed"`
	Files     []string `json:"files"`
	Branch    string   `json:"branch,omitempty"`
	Hash      string   `json:"hash,omitempty"`
	Short     string   `json:"short,omitempty"`
	Message   string   `json:"message,omitempty"`
}

// initJSON is what init prints.
type initJSON struct {
	Dir      string       `json:"dir"`
	Created  bool         `json:"created"`
	Mode     string       `json:"mode"`
	ModeFrom string       `json:"mode_from"`
	Git      *gitInitJSON `json:"git,omitempty"`
}

// gitInitJSON is what init --git did to the memory directory's own
// repository.
type gitInitJSON struct {
	Created bool     `json:"created"` // false: it was a repository already
	Files   []string `json:"files"`   // the files of the first commit, if one was made
	Hash    string   `json:"hash,omitempty"`
	Short   string   `json:"short,omitempty"`
}

// indexWriteJSON is what index --rebuild and --fit print.
type indexWriteJSON struct {
	Action  string `json:"action"` // "rebuilt" or "fitted"
	Lines   int    `json:"lines"`
	Bytes   int    `json:"bytes"`
	Warning string `json:"warning,omitempty"`
	// Overflow names the overflow indexes MEMORY.md now points to.
	Overflow []string         `json:"overflow"`
	LeftOut  []memdir.Problem `json:"left_out"` // topic files that could not be read
}

// instructionsAddJSON is what instructions add prints.
type instructionsAddJSON struct {
	Path    string `json:"path"`
	Section string `json:"section,omitempty"`
	Text    string `json:"text"`
}
