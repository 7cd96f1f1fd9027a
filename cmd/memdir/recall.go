package main

import (
	"bytes"
	"context"
	"io"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/capture"
	"github.com/memdir/memdir/embed"
	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/untrusted"
)

func newRecallCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "recall",
		Short: "Add the memories relevant to a prompt (a prompt hook)",
		Long: `Read the JSON an agent's prompt hook sends on standard input (Claude Code and
Codex: UserPromptSubmit; Gemini CLI: BeforeAgent; fields prompt, session_id,
cwd) and answer with the few memories most relevant to the prompt that the
session does not have yet, as the hook's additionalContext:

  {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"..."}}

Left out: memories the loaded part of MEMORY.md already names, memories
given earlier in the same session (derived state under .memdir/recall/),
private topics, and everything when the prompt says too little ("hi", "run
the tests": fewer than three words that are not stop words) or no memory
holds enough of its words. At most three memories and recall.budget
characters (default 1000). Nothing to add prints nothing.
recall.enabled false (or MEMDIR_RECALL_ENABLED=false) turns it off.
` + "`memdir setup`" + ` wires it and ` + "`memdir doctor`" + ` checks it. Input that is
not a hook's JSON exits 2.

Examples:
  echo '{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":".","prompt":"where is the api latency dashboard?"}' | memdir recall`,
		Args: exactArgs(0, "no arguments (the hook's JSON comes on standard input)"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runRecall(cmd.Context(), a) },
	}
}

func runRecall(ctx context.Context, a *app) error {
	if a.json {
		return usagef("recall answers in the hook's own JSON; drop --json")
	}
	in, err := a.readHook()
	if err != nil {
		return err
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if !ws.Settings.Bool("recall.enabled") || !ws.Dir.Exists() {
		return nil
	}
	var loaded map[string]bool // read when a memory is about to be given
	isLoaded := func(f string) bool {
		if loaded == nil {
			loaded = map[string]bool{}
			if data, err := readLoadable(ws.Dir.Path, index.DefaultCaps); err == nil {
				for _, e := range index.Load(data, index.DefaultCaps).Loaded {
					loaded[e.File] = true
				}
			}
		}
		return loaded[f]
	}
	ix := search.Open(ws.Dir)
	if cfg, ok := embed.Configured(ws.Settings, a.getenv); ok {
		ix.WithSemantic(embed.New(ws.Dir, cfg, a.errw))
	}
	text, _, err := ix.ForPrompt(ctx, capture.StripHookContext(in.Prompt), search.PromptOptions{
		Budget:  int(ws.Settings.Float("recall.budget")),
		Loaded:  isLoaded,
		Session: in.SessionID,
	})
	if err != nil || text == "" {
		return err
	}
	event := in.Event
	if event == "" {
		event = "UserPromptSubmit"
	}
	return a.writeJSON(capture.Reply{Specific: &capture.HookSpecific{Event: event, AdditionalContext: text}})
}

// loadableRead is how much of MEMORY.md recall reads first: 200 index
// lines of the usual length fit many times over.
const loadableRead = 64 << 10

// readLoadable reads the part of MEMORY.md in dir that an agent can load
// (see loadablePart), through the owner of untrusted reads: the first
// loadableRead bytes when they hold it, else the whole file. At 10,000
// topics MEMORY.md is 1.3 MB, and reading it whole was a sixth of a
// recall that gives memories.
func readLoadable(dir string, caps index.Caps) ([]byte, error) {
	f, err := atomicfile.OpenInside(dir, memdir.IndexFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, loadableRead)
	n, err := io.ReadFull(f, buf)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF: // the whole file
		part, _ := loadablePart(buf[:n], caps)
		return part, nil
	case err != nil:
		return nil, err
	}
	if part, whole := loadablePart(buf, caps); whole {
		return part, nil
	}
	data, err := untrusted.Read(f, f.Name(), untrusted.MaxMemory) // from the start, on the file already open
	if err != nil {
		return nil, err
	}
	part, _ := loadablePart(data, caps)
	return part, nil
}

// loadablePart is the start of MEMORY.md that holds every line an agent
// can load: past leading white space (which the load trims), one line
// over the line cap, and whether data held all of that (never, when
// data has frontmatter or a comment block: then all of it is the part).
// What is loaded is the same as from the whole file, and a MEMORY.md of 10,000 lines is
// not parsed on every prompt.
func loadablePart(data []byte, caps index.Caps) (part []byte, whole bool) {
	data = bytes.TrimLeftFunc(data, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' })
	// Frontmatter and comment blocks are not lines the caps count
	// (index.Load strips them first): a file with either is taken whole.
	if bytes.HasPrefix(data, []byte("---")) || bytes.Contains(data, []byte("<!--")) {
		return data, false
	}
	at := 0
	for range caps.Lines + 1 {
		i := bytes.IndexByte(data[at:], '\n')
		if i < 0 {
			return data, false
		}
		at += i + 1
	}
	return data[:at], true
}
