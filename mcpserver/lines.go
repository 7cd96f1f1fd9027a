package mcpserver

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// check returns the message when line is one JSON-RPC message, else the
// error response line to send back: a parse error for bad JSON, an
// invalid-request error for JSON that is not a message, and for a batch
// (MCP dropped batches in 2025-06-18).
func check(line []byte) (jsonrpc.Message, []byte) {
	if !json.Valid(line) {
		return nil, errorResponse(nil, jsonrpc.CodeParseError, "parse error: not JSON")
	}
	if line[0] == '[' {
		return nil, errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported; send one message per line")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, errorResponse(requestID(line), jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message")
	}
	return msg, nil
}

// requestID is the id of a message that could not be decoded, when it
// has a usable one (a string or a number), so the client can match the
// error to its request.
func requestID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	if c := m.ID[0]; c == '"' || c == '-' || c >= '0' && c <= '9' {
		return m.ID
	}
	return nil
}

// errorResponse is a JSON-RPC error response line.
func errorResponse(id json.RawMessage, code int64, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, msg}}
	data, err := json.Marshal(resp)
	if err != nil {
		panic(err) // a valid id, a number and a string always marshal
	}
	return append(data, '\n')
}
