// Command fakemodel is a loopback stand-in for the three model APIs the
// agents speak, for scripts/e2e: the Anthropic Messages API (Claude Code),
// the OpenAI Responses API (Codex) and the Gemini API (Gemini CLI). It
// records every request (one JSON line: method, path, body) and scripts one
// tool call: the first request of a conversation that offers a tool whose
// name ends in "memory_search" gets a call of it with the query given by
// -query; every other request gets a short text answer.
//
// With -subagent TYPE, the first Anthropic request that offers the Agent
// (or Task) tool starts that subagent instead, and the system prompt of
// the first request carrying a "# Persistent Agent Memory" section is
// written, from that heading on, to -agent-memory-out
// (scripts/e2e/agent-memory-golden records Claude Code's agent memory
// with it).
//
//	fakemodel -log requests.jsonl -addr-file addr.txt -query "deploy"
//	fakemodel -log r.jsonl -addr-file addr.txt -subagent reviewer -agent-memory-out golden.txt
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
)

func main() {
	logPath := flag.String("log", "requests.jsonl", "file that gets one JSON line per request")
	addrFile := flag.String("addr-file", "", "file that gets the address the server listens on")
	query := flag.String("query", "deploy", "the query of the scripted memory_search call")
	subagent := flag.String("subagent", "", "start this subagent type through Claude Code's Agent tool")
	agentOut := flag.String("agent-memory-out", "", "with -subagent: file that gets the subagent's agent memory section")
	flag.Parse()
	f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile+".tmp", []byte(ln.Addr().String()), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Rename(*addrFile+".tmp", *addrFile); err != nil {
			log.Fatal(err)
		}
	}
	s := &server{log: f, query: *query, subagent: *subagent, agentOut: *agentOut}
	log.Fatal(http.Serve(ln, s))
}

type server struct {
	mu    sync.Mutex
	log   *os.File
	query string
	// subagent and agentOut: see -subagent; started and recorded say
	// what was done once.
	subagent, agentOut string
	started, recorded  bool
}

// record appends one request to the log.
func (s *server) record(r *http.Request, body []byte) {
	line, _ := json.Marshal(map[string]string{"method": r.Method, "path": r.URL.String(), "body": string(body)})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log.Write(append(line, '\n'))
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.record(r, body)
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 100})
	case strings.HasSuffix(p, "/messages"):
		s.anthropic(w, body)
	case strings.HasSuffix(p, "/responses"):
		s.openai(w, body)
	case strings.Contains(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 100})
	case strings.Contains(p, ":generateContent"), strings.Contains(p, ":streamGenerateContent"):
		s.gemini(w, r, body)
	case strings.HasSuffix(p, "/models"):
		writeJSON(w, map[string]any{"data": []any{}, "models": []any{}})
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "{}")
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("content-type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// sse writes one server-sent event; event may be empty.
func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// searchTool is the offered tool whose name ends in memory_search, or "".
func searchTool(names []string) string {
	for _, n := range names {
		if strings.HasSuffix(n, "memory_search") {
			return n
		}
	}
	return ""
}

const answer = "Done."

// marker is what a prompt says to get the scripted tool call.
const marker = "search memory"

// anthropic answers POST /v1/messages, streamed or not.
func (s *server) anthropic(w http.ResponseWriter, body []byte) {
	var req struct {
		Stream   bool            `json:"stream"`
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(body, &req)
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Name)
	}
	all := string(body)
	content, call := []any{map[string]any{"type": "text", "text": answer}}, false
	if s.subagent != "" {
		if tool := s.agentMemory(systemText(req.System), names); tool != "" {
			content, call = []any{map[string]any{"type": "tool_use", "id": "toolu_e2e_agent", "name": tool,
				"input": map[string]any{"subagent_type": s.subagent, "description": "Review the change", "prompt": "Review the change."}}}, true
		}
		s.reply(w, req.Stream, content, call)
		return
	}
	if lastUserHas(req.Messages) && !strings.Contains(all, "toolu_e2e_mem") {
		// Claude Code defers MCP tools: it names them in a message, and
		// ToolSearch loads one before it can be called.
		tool, input, id := searchTool(names), map[string]any{"query": s.query}, "toolu_e2e_mem"
		if tool == "" && slices.Contains(names, "ToolSearch") && strings.Contains(all, "mcp__memdir__memory_search") &&
			!strings.Contains(all, "toolu_e2e_find") {
			tool, input, id = "ToolSearch", map[string]any{"query": "select:mcp__memdir__memory_search"}, "toolu_e2e_find"
		}
		if tool != "" {
			content, call = []any{map[string]any{"type": "tool_use", "id": id, "name": tool, "input": input}}, true
		}
	}
	if dir := memoryFolder(all); strings.Contains(strings.ToLower(all), saveMarker) && dir != "" &&
		slices.Contains(names, "Write") && !strings.Contains(all, "toolu_e2e_write") {
		// Save a memory the way Claude Code's own prompt says to: a file
		// in the auto-memory folder, with its frontmatter.
		content, call = []any{map[string]any{"type": "tool_use", "id": "toolu_e2e_write", "name": "Write",
			"input": map[string]any{"file_path": dir + "reference_e2e_dashboard.md", "content": claudeMemory}}}, true
	}
	s.reply(w, req.Stream, content, call)

}

// reply writes an Anthropic answer of one content block, streamed or not.
func (s *server) reply(w http.ResponseWriter, stream bool, content []any, call bool) {
	stop := "end_turn"
	if call {
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	msg := map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": "claude-e2e",
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage}
	if !stream {
		writeJSON(w, msg)
		return
	}
	startSSE(w)
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	sse(w, "message_start", map[string]any{"type": "message_start", "message": start})
	if call {
		c := content[0].(map[string]any)
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
		in, _ := json.Marshal(c["input"])
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": answer}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// agentHeading starts the agent memory section of a subagent's prompt.
const agentHeading = "# Persistent Agent Memory"

// agentMemory records a subagent's agent memory section, once, and
// returns the tool that starts the subagent when this request should
// (the first that offers it), else "".
func (s *server) agentMemory(system string, tools []string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := strings.Index(system, agentHeading); i >= 0 {
		if !s.recorded && s.agentOut != "" {
			if err := os.WriteFile(s.agentOut, []byte(system[i:]), 0o644); err != nil {
				log.Print(err)
			}
			s.recorded = true
		}
		return ""
	}
	if s.started {
		return ""
	}
	for _, t := range tools {
		if t == "Agent" || t == "Task" {
			s.started = true
			return t
		}
	}
	return ""
}

// systemText joins the text blocks of a system prompt (a string or a list
// of blocks).
func systemText(raw json.RawMessage) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n\n")
}

// saveMarker is what a prompt says to get a memory written with Claude
// Code's Write tool.
const saveMarker = "save a memory"

// claudeMemory is a memory as Claude Code 2.1.332's prompt asks for it.
const claudeMemory = `---
name: e2e-dashboard
description: The e2e dashboard lives at dash-e2e-4242
metadata:
  type: reference
---

Build status for the e2e suite is on the dashboard dash-e2e-4242.
`

// memoryFolder is the auto-memory folder Claude Code's system prompt
// names ("You have a persistent file-based memory at ` + "`DIR`" + `"), or "".
func memoryFolder(body string) string {
	const intro = "persistent file-based memory at `"
	i := strings.Index(body, intro)
	if i < 0 {
		return ""
	}
	rest := body[i+len(intro):]
	end := strings.IndexByte(rest, '`')
	if end < 0 {
		return ""
	}
	return rest[:end]
}

// lastUserHas reports whether the conversation's user messages ask for the
// scripted search.
func lastUserHas[M any](msgs []M) bool {
	b, _ := json.Marshal(msgs)
	return strings.Contains(strings.ToLower(string(b)), marker)
}

// openai answers POST /v1/responses (Codex streams).
func (s *server) openai(w http.ResponseWriter, body []byte) {
	var req struct {
		Stream bool              `json:"stream"`
		Input  []json.RawMessage `json:"input"`
		Tools  []json.RawMessage `json:"tools"`
	}
	json.Unmarshal(body, &req)
	names := openaiToolNames(req.Tools)
	tool := searchTool(names)
	all := string(body)
	call := tool != "" && !strings.Contains(all, `"function_call_output"`) && lastUserHas(req.Input)
	var item map[string]any
	if call {
		args, _ := json.Marshal(map[string]any{"query": s.query})
		item = map[string]any{"type": "function_call", "id": "fc_e2e1", "call_id": "call_e2e1", "name": tool,
			"arguments": string(args), "status": "completed"}
		if ns, name, ok := strings.Cut(tool, "\x00"); ok { // a tool inside a namespace
			item["namespace"], item["name"] = ns, name
		}
	} else {
		item = map[string]any{"type": "message", "id": "msg_e2e", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": answer, "annotations": []any{}}}}
	}
	resp := map[string]any{"id": "resp_e2e", "object": "response", "status": "completed", "model": "gpt-e2e",
		"output": []any{item}, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	if !req.Stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	created := map[string]any{"id": "resp_e2e", "object": "response", "status": "in_progress", "output": []any{}}
	sse(w, "response.created", map[string]any{"type": "response.created", "response": created})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if !call {
		sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "output_index": 0,
			"content_index": 0, "item_id": "msg_e2e", "delta": answer})
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": resp})
}

// openaiToolNames lists the function tools of a Responses request; a tool
// inside a namespace is named namespace, NUL, name.
func openaiToolNames(tools []json.RawMessage) []string {
	var out []string
	for _, raw := range tools {
		var t struct {
			Type  string            `json:"type"`
			Name  string            `json:"name"`
			Tools []json.RawMessage `json:"tools"`
		}
		json.Unmarshal(raw, &t)
		if t.Type == "namespace" {
			for _, n := range openaiToolNames(t.Tools) {
				out = append(out, t.Name+"\x00"+n)
			}
			continue
		}
		if t.Name != "" {
			out = append(out, t.Name)
		}
	}
	return out
}

// gemini answers :generateContent and :streamGenerateContent (alt=sse).
func (s *server) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Contents []json.RawMessage `json:"contents"`
		Tools    []struct {
			Decls []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	json.Unmarshal(body, &req)
	var names []string
	for _, t := range req.Tools {
		for _, d := range t.Decls {
			names = append(names, d.Name)
		}
	}
	tool := searchTool(names)
	call := tool != "" && !strings.Contains(string(body), `"functionResponse"`) && lastUserHas(req.Contents)
	part := map[string]any{"text": answer}
	if call {
		part = map[string]any{"functionCall": map[string]any{"name": tool, "args": map[string]any{"query": s.query}}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-e2e",
	}
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	sse(w, "", resp)
}
