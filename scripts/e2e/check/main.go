// Command check asserts, from the requests fakemodel recorded, what
// scripts/e2e promises of each client, and does the one Codex step a
// script cannot do with a plain file: listing the hooks to review.
//
//	check search -log search.jsonl -token wg-e2e-7731
//	check present -log search.jsonl -token tm-e2e-5150 -what "team memory"
//	check remember -log remember.jsonl
//	check recall -log recall.jsonl -control search.jsonl -token lat-e2e-3141
//	check codex-hooks -codex /path/to/codex -cwd /project   # prints [hooks.state] TOML
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: check search|present|remember|recall|codex-hooks [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	logPath := fs.String("log", "", "fakemodel's request log")
	token := fs.String("token", "", "a word only the planted memory holds")
	codex := fs.String("codex", "", "the codex executable")
	cwd := fs.String("cwd", "", "the project")
	what := fs.String("what", "memory", "what the token stands for, in messages")
	control := fs.String("control", "", "recall: the log of a session whose prompt is about something else")
	fs.Parse(os.Args[2:])
	var err error
	switch os.Args[1] {
	case "search":
		err = search(*logPath, *token)
	case "present":
		err = present(*logPath, *token, *what)
	case "remember":
		err = remember(*logPath)
	case "recall":
		err = recall(*logPath, *control, *token)
	case "codex-hooks":
		err = codexHooks(*codex, *cwd)
	default:
		err = fmt.Errorf("unknown check %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
}

// request is one recorded model request, its body decoded.
type request struct {
	Path string
	Body map[string]any
	Raw  string
}

// modelRequests reads the log and keeps the requests to a model that
// offer tools (Gemini's routing classifier offers none).
func modelRequests(path string) ([]request, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var line struct{ Path, Body string }
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, err
		}
		var body map[string]any
		if json.Unmarshal([]byte(line.Body), &body) != nil || body["tools"] == nil {
			continue
		}
		if strings.Contains(line.Path, "count_tokens") {
			continue
		}
		// The raw text as the model reads it: JSON-decoded strings.
		text, _ := json.Marshal(body)
		raw := strings.NewReplacer(`\n`, "\n", `\"`, `"`).Replace(string(text))
		out = append(out, request{Path: line.Path, Body: body, Raw: raw})
	}
	if len(out) == 0 {
		return nil, errors.New(path + ": no request to a model")
	}
	return out, sc.Err()
}

func pass(format string, a ...any) { fmt.Printf("PASS "+format+"\n", a...) }

// search: the first request holds the planted memory exactly once and
// offers memdir's search tool; a later request carries the tool's answer
// with the planted memory in it.
func search(logPath, token string) error {
	reqs, err := modelRequests(logPath)
	if err != nil {
		return err
	}
	first := reqs[0]
	if n := strings.Count(first.Raw, token); n != 1 {
		return fmt.Errorf("the first request holds the planted memory %d times, want 1", n)
	}
	pass("memory present exactly once in the first request (%d requests)", len(reqs))
	// Offered: declared among the request's tools, or (Claude Code, which
	// defers MCP tools) named by its full name in the list of deferred
	// tools. The server's instructions mention memory_search too, so a
	// bare mention is not enough.
	tools, _ := json.Marshal(first.Body["tools"])
	if !strings.Contains(string(tools), "memory_search") && !strings.Contains(first.Raw, "mcp__memdir__memory_search") {
		return errors.New("memdir's memory_search is not among the tools offered")
	}
	pass("memdir's tools offered")
	for _, r := range reqs[1:] {
		for _, res := range toolResults(r.Body) {
			if strings.Contains(res, token) {
				pass("memory_search answered with the planted memory: %.120s", res)
				return nil
			}
		}
	}
	return errors.New("no request carries a memory_search result with the planted memory")
}

// present: the first request holds the token exactly once (a memory
// that must reach the model at session start, such as the team's).
func present(logPath, token, what string) error {
	reqs, err := modelRequests(logPath)
	if err != nil {
		return err
	}
	if n := strings.Count(reqs[0].Raw, token); n != 1 {
		return fmt.Errorf("the first request holds the %s %d times, want 1", what, n)
	}
	pass("%s present exactly once in the first request", what)
	return nil
}

// toolResults finds the results of the scripted memory_search call in a
// request: Anthropic tool_result, OpenAI function_call_output, Gemini
// functionResponse.
func toolResults(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		hit := x["tool_use_id"] == "toolu_e2e_mem" ||
			x["type"] == "function_call_output" && x["call_id"] == "call_e2e1"
		if fr, ok := x["functionResponse"].(map[string]any); ok {
			name, _ := fr["name"].(string)
			hit = strings.HasSuffix(name, "memory_search")
		}
		if hit {
			b, _ := json.Marshal(x)
			out = append(out, string(b))
		}
		for _, c := range x {
			out = append(out, toolResults(c)...)
		}
	case []any:
		for _, c := range x {
			out = append(out, toolResults(c)...)
		}
	}
	return out
}

// remember: the model was told that memdir saved the "#" prompt.
func remember(logPath string) error {
	reqs, err := modelRequests(logPath)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if i := strings.Index(r.Raw, "memdir saved the user's note"); i >= 0 {
			pass("the model was told: %.100s", r.Raw[i:])
			return nil
		}
	}
	return errors.New("no request tells the model memdir saved the note")
}

// recall: a memory the session does not load (the control session's
// first request, after a prompt about something else, lacks it) is in the
// first request after a prompt about it, exactly once: the prompt hook
// added it.
func recall(logPath, controlPath, token string) error {
	ctl, err := modelRequests(controlPath)
	if err != nil {
		return err
	}
	if n := strings.Count(ctl[0].Raw, token); n != 0 {
		return fmt.Errorf("the memory to recall is in the control session's first request %d times: it is loaded, not recalled", n)
	}
	pass("the memory to recall is not in the first request of a session about something else")
	reqs, err := modelRequests(logPath)
	if err != nil {
		return err
	}
	raw := reqs[0].Raw
	i := strings.Index(raw, token)
	if i < 0 || strings.Count(raw, token) != 1 {
		return fmt.Errorf("the first request after a prompt about it holds the memory %d times, want 1", strings.Count(raw, token))
	}
	from := strings.LastIndex(raw[:i], "Memories that may bear")
	if from < 0 {
		from = max(0, i-120)
	}
	pass("recalled into the first request after a prompt about it: %.200s", raw[from:])
	return nil
}

// codexHooks asks `codex app-server` for the project's hooks (hooks/list)
// and prints what Codex's /hooks review records when the person trusts
// each of them: [hooks.state."<key>"] trusted_hash = "<hash>".
func codexHooks(codex, cwd string) error {
	cmd := exec.Command(codex, "app-server")
	cmd.Dir, cmd.Stderr = cwd, io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"memdir-e2e","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[` + quote(cwd) + `]}}`,
	} {
		if _, err := io.WriteString(in, m+"\n"); err != nil {
			return err
		}
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var resp struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks []struct {
						Key         string `json:"key"`
						Command     string `json:"command"`
						CurrentHash string `json:"currentHash"`
					} `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &resp) != nil || resp.ID != 2 {
			continue
		}
		for _, d := range resp.Result.Data {
			for _, h := range d.Hooks {
				if strings.Contains(h.Command, "memdir") {
					fmt.Printf("\n[hooks.state.%s]\ntrusted_hash = %s\n", quote(h.Key), quote(h.CurrentHash))
				}
			}
		}
		return nil
	}
	return errors.New("codex app-server gave no hooks/list answer")
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
