package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/capture"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/reldate"
	"github.com/memdir/memdir/typesx"
)

func newCaptureCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "capture",
		Short: "Turn an agent hook's input into memory (for hooks)",
		Long: `Read the JSON an agent's hook sends on standard input (Claude Code and
Codex: UserPromptSubmit, PreCompact, SessionEnd; Gemini CLI: BeforeAgent,
PreCompress, SessionEnd) and act on it. ` + "`memdir setup`" + ` wires it.

A prompt that asks to remember something (a leading "#", as in "# always use
pnpm", or "remember that ...") becomes a memory at once, typed and named
the way the dream types an untyped note, through the same rules as memdir
add (daily log in log mode, near-duplicates merged, credentials refused).
A note of a type listed in capture.team_types goes to the project's team
memory instead (docs/team.md).
The reply tells the agent and the person what was saved. Any other prompt
gets no reply and costs no more than reading the input.

Before compaction and at the end of a session, in log mode with an external
distiller (dream.distiller), a compact digest of the new part of the
transcript (the prompts, files edited, commands run, errors) is appended to
the daily log for the next dream. Text inside <private>...</private> is
never stored; an item that looks like a credential is left out of a digest.

Input that is not a hook's JSON exits 2 (for a UserPromptSubmit hook that
blocks the prompt, so the agent shows the error).

Examples:
  echo '{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":".","prompt":"# use pnpm, not npm"}' | memdir capture`,
		Args: exactArgs(0, "no arguments (the hook's JSON comes on standard input)"),
		RunE: func(*cobra.Command, []string) error { return runCapture(a) },
	}
}

func runCapture(a *app) error {
	if a.json {
		return usagef("capture answers in the hook's own JSON; drop --json")
	}
	in, err := a.readHook()
	if err != nil {
		return err
	}
	switch {
	case in.IsPrompt():
		return a.capturePrompt(in)
	case in.IsDigestPoint():
		return a.captureDigest(in)
	}
	return nil
}

// capturePrompt saves the note a prompt asks to remember and answers the
// hook. A note the store refuses (a credential, say) is answered too: the
// hook must not fail the prompt for it.
func (a *app) capturePrompt(in capture.Input) error {
	note, ok := capture.Remember(in.Prompt)
	if !ok {
		return nil
	}
	// The private part goes before the note is named: a name is stored too.
	if note = strings.TrimSpace(memdir.StripPrivate(note)); note == "" {
		msg := "all of the note is inside <private>...</private>, which is never stored"
		return a.writeJSON(capture.NewReply(in, "memdir: not saved: "+msg, "memdir did not save the user's note: "+msg+"."))
	}
	n := capture.NoteFrom(note)
	text, _ := reldate.Rewrite(n.Text, a.now())
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	d, scope, err := a.captureTarget(ws, n.Type)
	if err != nil {
		return err
	}
	res, err := d.Add(memdir.AddRequest{Type: n.Type, Name: n.Name, Text: text})
	var reply capture.Reply
	switch {
	case memdir.IsInput(err):
		reply = capture.NewReply(in, "memdir: not saved: "+err.Error(),
			"memdir did not save the user's note to memory: "+err.Error()+". Tell the user.")
	case err != nil:
		return err
	default:
		where, detail := res.File, res.File+", "+string(res.Action)
		if w := res.Where(); w != "" {
			detail += "; " + w
		}
		if res.Action == memdir.Logged {
			where = res.Log + ", for the next dream"
			detail = "logged to " + where
		}
		if scope != "" {
			where += ", " + scope
			detail += "; in " + scope + ", shared with everyone who works in this project once committed"
		}
		reply = capture.NewReply(in, fmt.Sprintf("memdir: remembered (%s %q, %s)", n.Type, n.Name, where),
			fmt.Sprintf("memdir saved the user's note to memory as a %s memory named %q (%s). It is remembered: do not save it again; just acknowledge it.", n.Type, n.Name, detail))
	}
	return a.writeJSON(reply)
}

// captureDigest appends the digest of the transcript's new part, in log
// mode with an external distiller. It prints nothing: before compaction,
// Claude Code would read its output as compaction instructions.
func (a *app) captureDigest(in capture.Input) error {
	if in.TranscriptPath == "" {
		return nil
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if ws.Dir.Mode != memdir.Log || ws.Settings.Get("dream.distiller") == "" {
		return nil
	}
	offsets := capture.NewOffsets(ws.Loc.Dir)
	s, end, err := capture.ReadFrom(in.TranscriptPath, offsets.Get(in.SessionID, in.TranscriptPath))
	if err != nil {
		a.warn("capture: transcript: %v", err)
		return nil
	}
	if text := capture.Digest(s, in.SessionID); text != "" {
		if err := ws.Claim(); err != nil {
			return err
		}
		_, err := ws.Dir.Add(memdir.AddRequest{Type: typesx.Project, Name: capture.DigestTitle(in.SessionID), Text: text})
		if memdir.IsInput(err) {
			a.warn("capture: session digest not saved: %v", err)
		} else if err != nil {
			return err
		}
	}
	return offsets.Set(in.SessionID, in.TranscriptPath, end)
}

// captureTarget is where a remembered note of type t goes: the team
// memory when capture.team_types lists t, else the person's own memory
// (claimed for the project). A user memory (about the person) never goes
// to the team, whatever the setting says. scope names team memory for
// the reply.
func (a *app) captureTarget(ws *workspace, t typesx.Type) (*memdir.Dir, string, error) {
	if a.agentType == "" && t != typesx.User && slices.Contains(ws.Settings.Types("capture.team_types"), t) {
		tm, err := a.team(ws, true)
		if err != nil {
			return nil, "", err
		}
		return tm.Dir, "team memory (" + tm.Rel + ")", nil
	}
	return ws.Dir, "", ws.Claim()
}

// readHook reads the JSON an agent's hook sends on standard input, and
// acts for the agent's project (its cwd) unless --cwd names another.
func (a *app) readHook() (capture.Input, error) {
	data, err := io.ReadAll(io.LimitReader(a.in, capture.MaxInput+1))
	if err != nil {
		return capture.Input{}, fmt.Errorf("read hook input: %w", err)
	}
	in, err := capture.ParseInput(data)
	if err != nil {
		return capture.Input{}, &usageError{msg: err.Error()}
	}
	if a.cwdFlag == "" && in.Cwd != "" {
		if fi, err := os.Stat(in.Cwd); err == nil && fi.IsDir() {
			a.cwdFlag = in.Cwd // the agent's project, wherever the hook runs
		}
	}
	return in, nil
}
