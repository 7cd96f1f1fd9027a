package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Session is what a transcript says happened, in order, each list without
// repeats.
type Session struct {
	Prompts  []string
	Files    []string
	Commands []string
	Errors   []string
}

// ReadFrom reads the transcript at path from offset on (from the start
// when the file is now shorter: it was replaced) and returns the new
// offset. Only a regular file is read.
func ReadFrom(path string, offset int64) (Session, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return Session{}, offset, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Session{}, offset, err
	}
	if !fi.Mode().IsRegular() {
		return Session{}, offset, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() < offset {
		offset = 0
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return Session{}, offset, err
	}
	s, n, err := ReadTranscript(f)
	return s, offset + n, err
}

// maxLine is the longest transcript line read; longer lines (a huge tool
// output) are skipped.
const maxLine = 8 << 20

// ReadTranscript reads a JSONL transcript in any of the three formats the
// agents write, line by line, and returns what happened and how many
// bytes it read (whole lines only, so a later call can resume there).
// Lines it does not understand are skipped: transcripts grow new kinds of
// lines with every release.
//
//   - Claude Code: {"type":"user"|"assistant","message":{"content":...}}
//     with tool_use blocks (Bash: input.command; Edit, Write, MultiEdit,
//     NotebookEdit: input.file_path or notebook_path) and tool_result
//     blocks (is_error).
//   - Codex: {"type":"event_msg","payload":{"type":"user_message",...}} and
//     {"type":"response_item","payload":{"type":"function_call",...}}
//     (shell, exec_command: arguments.command; apply_patch: the patch's
//     file lines) and function_call_output with a non-zero exit code.
//   - Gemini CLI: {"type":"user","content":...} and {"type":"gemini",
//     "toolCalls":[{"name","args","status"}]}.
func ReadTranscript(r io.Reader) (Session, int64, error) {
	var s Session
	seen := map[string]bool{}
	add := func(list *[]string, kind, v string) {
		if v = strings.TrimSpace(v); v != "" && !seen[kind+"\x00"+v] {
			seen[kind+"\x00"+v] = true
			*list = append(*list, v)
		}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var read int64
	for {
		line, err := readLine(br)
		if len(line) > 0 && line[len(line)-1] == '\n' {
			read += int64(len(line))
			s.line(line, add)
		}
		if errors.Is(err, io.EOF) {
			return s, read, nil
		}
		if err != nil {
			return s, read, err
		}
	}
}

// readLine reads one line; a line over maxLine is drained and returned
// as a bare newline of the same length accounting.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLine {
			buf = append(buf, chunk...)
		} else if buf != nil {
			buf = buf[:0:0] // too long: keep reading, keep nothing
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, err
	}
}

// entry is one transcript line, in the union of the three formats.
type entry struct {
	Type    string          `json:"type"`
	IsMeta  bool            `json:"isMeta"`
	Message *message        `json:"message"`   // Claude
	Payload json.RawMessage `json:"payload"`   // Codex
	Content json.RawMessage `json:"content"`   // Gemini
	Calls   []geminiCall    `json:"toolCalls"` // Gemini
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type block struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	IsError bool            `json:"is_error"`
	Content json.RawMessage `json:"content"`
}

type geminiCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Status string          `json:"status"`
	Result json.RawMessage `json:"result"`
}

func (s *Session) line(line []byte, add func(*[]string, string, string)) {
	var e entry
	if json.Unmarshal(bytes.TrimSpace(line), &e) != nil {
		return
	}
	switch {
	case e.Message != nil && (e.Type == "user" || e.Type == "assistant"):
		s.claude(e, add)
	case e.Payload != nil:
		s.codex(e, add)
	case e.Type == "user" && !e.IsMeta:
		add(&s.Prompts, "p", prompt(text(e.Content)))
	case e.Type == "gemini":
		for _, c := range e.Calls {
			s.tool(c.Name, c.Args, add)
			if c.Status == "error" {
				msg := c.Name + " failed"
				if first := firstLine(text(c.Result)); first != "" {
					msg += ": " + first
				}
				add(&s.Errors, "e", msg)
			}
		}
	}
}

func (s *Session) claude(e entry, add func(*[]string, string, string)) {
	var str string
	if json.Unmarshal(e.Message.Content, &str) == nil {
		if e.Type == "user" && !e.IsMeta {
			add(&s.Prompts, "p", prompt(str))
		}
		return
	}
	var blocks []block
	if json.Unmarshal(e.Message.Content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		switch {
		case b.Type == "text" && e.Type == "user" && !e.IsMeta:
			add(&s.Prompts, "p", prompt(b.Text))
		case b.Type == "tool_use":
			s.tool(b.Name, b.Input, add)
		case b.Type == "tool_result" && b.IsError:
			add(&s.Errors, "e", firstLine(text(b.Content)))
		}
	}
}

// tool records what one tool call did: a command run, a file written.
func (s *Session) tool(name string, args json.RawMessage, add func(*[]string, string, string)) {
	var a struct {
		Command      json.RawMessage `json:"command"`
		FilePath     string          `json:"file_path"`
		NotebookPath string          `json:"notebook_path"`
	}
	if json.Unmarshal(args, &a) != nil {
		return
	}
	switch name {
	case "Bash", "run_shell_command", "shell", "exec_command", "local_shell":
		add(&s.Commands, "c", firstLine(command(a.Command)))
	case "Edit", "Write", "MultiEdit", "NotebookEdit", "write_file", "replace":
		add(&s.Files, "f", a.FilePath+a.NotebookPath)
	}
}

func (s *Session) codex(e entry, add func(*[]string, string, string)) {
	var p struct {
		Type      string `json:"type"`
		Message   string `json:"message"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Input     string `json:"input"`
		Output    string `json:"output"`
	}
	if json.Unmarshal(e.Payload, &p) != nil {
		return
	}
	switch {
	case e.Type == "event_msg" && p.Type == "user_message":
		add(&s.Prompts, "p", prompt(p.Message))
	case p.Type == "function_call":
		s.tool(p.Name, json.RawMessage(p.Arguments), add)
	case p.Type == "custom_tool_call" && p.Name == "apply_patch":
		for _, l := range strings.Split(p.Input, "\n") {
			for _, pre := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
				if f, ok := strings.CutPrefix(l, pre); ok {
					add(&s.Files, "f", f)
				}
			}
		}
	case p.Type == "function_call_output":
		var out struct {
			Output   string `json:"output"`
			Metadata struct {
				ExitCode *int `json:"exit_code"`
			} `json:"metadata"`
		}
		if json.Unmarshal([]byte(p.Output), &out) == nil && out.Metadata.ExitCode != nil && *out.Metadata.ExitCode != 0 {
			add(&s.Errors, "e", firstLine(out.Output))
		}
	}
}

// text flattens message content: a string, or a list of blocks with text.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []block
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		} else if p.Content != nil {
			out = append(out, text(p.Content))
		}
	}
	return strings.Join(out, "\n")
}

// command is a shell command given as a string or as an argument list.
func command(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) != nil {
		return ""
	}
	if len(argv) == 3 && (argv[0] == "bash" || argv[0] == "sh" || argv[0] == "zsh") && (argv[1] == "-lc" || argv[1] == "-c") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

// prompt keeps what the person typed: not the agents' own injected
// messages (<command-name>, <local-command-stdout>, <environment_context>,
// "Caveat: ..."), which start with a tag or a caveat.
func prompt(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "<") || strings.HasPrefix(t, "Caveat:") || strings.HasPrefix(t, "[Request interrupted") {
		return ""
	}
	return t
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
