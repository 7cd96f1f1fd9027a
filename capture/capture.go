// Package capture reads what coding agents' hooks send on standard input
// and turns it into memory: a prompt that asks to remember something
// becomes a note at once, and a session's transcript becomes a compact
// digest (the person's prompts, the files edited, the commands run, the
// errors) for the next dream.
//
// The formats come from the agents' shipped code (docs/agents.md cites
// it): every hook input carries hook_event_name, session_id, cwd and
// transcript_path; UserPromptSubmit (Claude Code, Codex) and BeforeAgent
// (Gemini CLI) carry the prompt. The reply to a prompt hook is the JSON the
// three agents share: hookSpecificOutput.additionalContext for the model
// and systemMessage for the person.
package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/typesx"
)

// MaxInput is the most a hook may send; a prompt longer than this is not
// a note.
const MaxInput = 4 << 20

// Input is a hook's standard input. Fields an event does not have stay
// empty; Codex sends transcript_path null when there is none.
type Input struct {
	Event          string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Prompt         string `json:"prompt"`
	Trigger        string `json:"trigger"` // PreCompact, PreCompress: manual or auto
	Reason         string `json:"reason"`  // SessionEnd
}

// InputError is hook input memdir cannot read.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// UserError marks bad input: the CLI exits 2.
func (e *InputError) UserError() {}

// ParseInput decodes a hook's input: one JSON object with a
// hook_event_name.
func ParseInput(data []byte) (Input, error) {
	var in Input
	if len(data) > MaxInput {
		return in, &InputError{Msg: fmt.Sprintf("hook input is over %d bytes", MaxInput)}
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return in, &InputError{Msg: fmt.Sprintf("hook input: %s should be a %s", te.Field, te.Type)}
		}
		return in, &InputError{Msg: "hook input is not a JSON object: " + err.Error() + " (memdir capture reads what an agent's hook sends on standard input)"}
	}
	if dec.More() {
		return in, &InputError{Msg: "hook input holds more than one JSON value"}
	}
	if in.Event == "" {
		return in, &InputError{Msg: "hook input has no hook_event_name"}
	}
	return in, nil
}

// IsPrompt reports whether the event carries the person's prompt.
func (in Input) IsPrompt() bool {
	return in.Event == "UserPromptSubmit" || in.Event == "BeforeAgent"
}

// IsDigestPoint reports whether the event is a moment to digest the
// transcript: before the agent compacts it, or when the session ends.
func (in Input) IsDigestPoint() bool {
	switch in.Event {
	case "PreCompact", "PreCompress", "SessionEnd":
		return true
	}
	return false
}

// rememberPhrase is "remember that ...", "remember: ...", with a
// "please" in front if the person is polite.
var rememberPhrase = lazyre.New(`(?is)^(?:please[,\s]+)?remember(?:\s+that\b|\s*:)\s*(.*)$`)

// Remember returns the note a prompt asks to keep: the text after a
// leading "#" (as in Claude Code's and Amplifier's memory shortcut) or
// after "remember that" / "remember:". A "#" prompt must be one line and
// not a heading ("## ..."), a shebang or an issue number ("#123 fails"), so
// that pasted markdown is not taken for a note.
func Remember(prompt string) (string, bool) {
	p := strings.TrimSpace(StripHookContext(prompt))
	if rest, ok := strings.CutPrefix(p, "#"); ok {
		if strings.ContainsAny(p, "\r\n") || rest == "" || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "!") {
			return "", false
		}
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsDigit(r) {
			return "", false
		}
		note := strings.TrimSpace(rest)
		return note, note != ""
	}
	m := rememberPhrase().FindStringSubmatch(p)
	if m == nil {
		return "", false
	}
	note := strings.TrimSpace(m[1])
	return note, note != ""
}

// StripHookContext returns the person's prompt without the session-start
// context Gemini CLI puts in front of it in headless mode (gemini -p):
// "<hook_context>...</hook_context>\n\n" and then the prompt. Gemini
// escapes "<" and ">" inside the context, so the first closing tag ends it.
// A prompt without that prefix is returned as it is.
func StripHookContext(prompt string) string {
	const open, closing = "<hook_context>", "</hook_context>"
	rest, ok := strings.CutPrefix(strings.TrimLeft(prompt, " \t\r\n"), open)
	if !ok {
		return prompt
	}
	_, after, ok := strings.Cut(rest, closing)
	if !ok {
		return prompt
	}
	return strings.TrimLeft(after, " \t\r\n")
}

// Note is a remembered prompt made ready for the store.
type Note struct {
	Type typesx.Type
	Name string
	Text string
}

// NoteFrom types and names a note as the dream's built-in distiller
// would type and name an untyped log entry (dream.Untyped), so a prompt
// remembered now and one distilled later come out alike.
func NoteFrom(text string) Note {
	typ, name, tidy := dream.Untyped(text)
	return Note{Type: typ, Name: name, Text: tidy}
}

// Reply is the JSON a prompt hook answers with.
type Reply struct {
	SystemMessage string        `json:"systemMessage,omitempty"`
	Specific      *HookSpecific `json:"hookSpecificOutput,omitempty"`
}

// HookSpecific is the event's own part of a reply.
type HookSpecific struct {
	Event             string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// NewReply tells the model (context) and the person (message) what
// happened to a prompt's note.
func NewReply(in Input, message, context string) Reply {
	return Reply{SystemMessage: message, Specific: &HookSpecific{Event: in.Event, AdditionalContext: context}}
}
