// Command claude-agent-golden records what a real Claude Code gives a
// subagent as its agent memory, so memdir's rendering can be checked
// against it byte for byte. It is a loopback stand-in for the Anthropic
// Messages API: the first request that offers the Agent (or Task) tool
// gets a call of it for the subagent type -agent; every other request
// gets a short text answer. Every request is recorded; the system prompt
// of the first one that carries a "# Persistent Agent Memory" section is
// written to -out, from that heading on.
//
//	claude-agent-golden -agent reviewer -out golden.txt -addr-file addr
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
	"strings"
	"sync"
)

func main() {
	agent := flag.String("agent", "reviewer", "the subagent type to start")
	out := flag.String("out", "golden.txt", "file that gets the agent memory section")
	addrFile := flag.String("addr-file", "", "file that gets the address the server listens on")
	reqLog := flag.String("log", "", "file that gets every request body, one per line")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile+".tmp", []byte(ln.Addr().String()), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(*addrFile+".tmp", *addrFile); err != nil {
		log.Fatal(err)
	}
	s := &server{agent: *agent, out: *out, reqLog: *reqLog}
	log.Fatal(http.Serve(ln, s))
}

type server struct {
	mu            sync.Mutex
	agent, out    string
	reqLog        string
	called, wrote bool
}

const heading = "# Persistent Agent Memory"

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if !strings.HasSuffix(r.URL.Path, "/messages") {
		w.Header().Set("content-type", "application/json")
		io.WriteString(w, `{"input_tokens": 100}`)
		return
	}
	var req struct {
		Stream bool            `json:"stream"`
		System json.RawMessage `json:"system"`
		Tools  []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reqLog != "" {
		if f, err := os.OpenFile(s.reqLog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			f.Write(append(body, '\n'))
			f.Close()
		}
	}
	system := systemText(req.System)
	if i := strings.Index(system, heading); i >= 0 && !s.wrote {
		if err := os.WriteFile(s.out, []byte(system[i:]), 0o644); err != nil {
			log.Print(err)
		}
		s.wrote = true
	}
	tool := ""
	for _, t := range req.Tools {
		if t.Name == "Agent" || t.Name == "Task" {
			tool = t.Name
		}
	}
	var block map[string]any
	stop := "end_turn"
	if tool != "" && !s.called && !strings.Contains(system, heading) {
		s.called, stop = true, "tool_use"
		block = map[string]any{"type": "tool_use", "id": "toolu_golden_1", "name": tool,
			"input": map[string]any{"subagent_type": s.agent, "description": "Review the change", "prompt": "Review the change."}}
	} else {
		block = map[string]any{"type": "text", "text": "Done."}
	}
	reply(w, req.Stream, block, stop)
}

// systemText joins the text blocks of a system prompt (a string or a list
// of blocks).
func systemText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
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

func reply(w http.ResponseWriter, stream bool, block map[string]any, stop string) {
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	msg := map[string]any{"id": "msg_golden", "type": "message", "role": "assistant", "model": "claude-golden",
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage}
	if !stream {
		w.Header().Set("content-type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	ev := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	}
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	ev("message_start", map[string]any{"type": "message_start", "message": start})
	if block["type"] == "tool_use" {
		in, _ := json.Marshal(block["input"])
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	} else {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	}
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	ev("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	ev("message_stop", map[string]any{"type": "message_stop"})
}
