package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxMessageBytes bounds one incoming message. A memory is at most 40 KB,
// so a longer line is a mistake; it gets an error response and is skipped.
const MaxMessageBytes = 4 << 20

// syncWriter serialises writes to the client: the SDK writes each message
// with one Write call, and the line filter writes its error responses
// between them.
type syncWriter struct {
	mu     sync.Mutex
	w      io.Writer
	flight *flight // told of every response; nil for none
}

func (s *syncWriter) Write(p []byte) (int, error) {
	out := p
	if bytes.Contains(p, codeZero) {
		out = fixCode(p)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	if s.flight != nil {
		s.flight.outgoing(out)
	}
	return len(p), nil
}

// codeZero starts an error object without a JSON-RPC code, as the SDK
// (v1.8.0) writes it for an initialize whose params do not decode and for
// a request sent before initialize.
var codeZero = []byte(`"error":{"code":0,`)

// fixCode gives an error response that has code 0 the code JSON-RPC asks
// for: invalid params when the params did not decode, else invalid
// request. Any other line is returned as it is.
func fixCode(line []byte) []byte {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		} `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil || m.Error == nil || m.Error.Code != 0 {
		return line
	}
	m.Error.Code = jsonrpc.CodeInvalidRequest
	if bytes.Contains([]byte(m.Error.Message), []byte("unmarshaling")) {
		m.Error.Code = jsonrpc.CodeInvalidParams
	}
	data, err := json.Marshal(m)
	if err != nil {
		return line
	}
	return append(data, '\n')
}

// Close does nothing: the process owns its standard output.
func (s *syncWriter) Close() error { return nil }

// lineFilter stands between the client and the SDK. The SDK ends the
// session on the first line it cannot decode; JSON-RPC wants an error
// response instead. So lineFilter passes on only the lines the SDK will
// decode (one message per line) and answers every other line itself: a
// parse error for bad JSON, an invalid-request error for JSON that is not
// a message, a batch or a line over MaxMessageBytes.
type lineFilter struct {
	src     *bufio.Reader
	closer  io.Closer
	out     io.Writer
	flight  *flight // told of every request; drained at the end of input
	pending []byte  // the rest of a line already accepted
	err     error   // the read error to return once pending is drained
}

func newLineFilter(r io.Reader, out io.Writer, fl *flight) *lineFilter {
	f := &lineFilter{src: bufio.NewReaderSize(r, 64<<10), out: out, flight: fl}
	if c, ok := r.(io.Closer); ok {
		f.closer = c
	}
	return f
}

// Read hands the SDK the next accepted line, newline included.
func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			// The client is done sending: let what it asked for answer
			// before the session ends.
			f.flight.drain()
			return 0, f.err
		}
		line, tooLong, err := f.readLine()
		f.err = err
		if tooLong {
			f.reply(errorResponse(nil, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("message longer than %d bytes", MaxMessageBytes)))
			continue
		}
		if len(line) == 0 {
			continue
		}
		msg, resp := check(line)
		if resp != nil {
			f.reply(resp)
			continue
		}
		f.flight.incoming(msg)
		f.pending = append(line, '\n')
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// Close closes the client's stream, if it can be closed, and ends a
// drain.
func (f *lineFilter) Close() error {
	f.flight.stop()
	if f.closer != nil {
		return f.closer.Close()
	}
	return nil
}

// readLine returns the next line without its line break and surrounding
// space. A line over MaxMessageBytes is read to its end and dropped.
func (f *lineFilter) readLine() (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := f.src.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxMessageBytes+2 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSpace(buf), tooLong, err
	}
}

func (f *lineFilter) reply(resp []byte) {
	// A client that stopped reading cannot be told; the next read ends
	// the session.
	_, _ = f.out.Write(resp)
}

// check returns the message when line is one JSON-RPC message the SDK
// decodes, else the error response line to send back.
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
