package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// reply is an error response as a client reads it.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decodeReply(t *testing.T, line []byte) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal(line, &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.Error.Message == "" {
		t.Fatalf("reply %q is not a JSON-RPC error response: %v", line, err)
	}
	return r
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		line string
		code int64 // 0: passed on to the SDK
		id   string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":"a","result":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"`, jsonrpc.CodeParseError, "null"},
		{`not json`, jsonrpc.CodeParseError, "null"},
		{`{"a":1} {"b":2}`, jsonrpc.CodeParseError, "null"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null"},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "7"},
		{`{"jsonrpc":"2.0","id":"x","method":5}`, jsonrpc.CodeInvalidRequest, `"x"`},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
		{`"just a string"`, jsonrpc.CodeInvalidRequest, "null"},
	} {
		_, resp := check([]byte(tc.line))
		if tc.code == 0 {
			if resp != nil {
				t.Errorf("check(%s) = %s, want it passed on", tc.line, resp)
			}
			continue
		}
		if resp == nil {
			t.Errorf("check(%s) passed it on, want code %d", tc.line, tc.code)
			continue
		}
		r := decodeReply(t, resp)
		if r.Error.Code != tc.code || string(r.ID) != tc.id {
			t.Errorf("check(%s) = %s, want code %d id %s", tc.line, resp, tc.code, tc.id)
		}
	}
}

// readAll reads messages from c until the end of its input.
func readAll(t *testing.T, c *stdioConn) []jsonrpc.Message {
	t.Helper()
	var msgs []jsonrpc.Message
	for {
		msg, err := c.Read(context.Background())
		if err == io.EOF {
			return msgs
		}
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, msg)
	}
}

// TestStdioLines: good lines reach the SDK one message each, bad ones are
// answered, blank ones dropped, and an over-long line is answered and
// skipped without losing the next one.
func TestStdioLines(t *testing.T) {
	good := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxMessageBytes) + `"}}`
	in := "\r\n" + good + "\r\n\n  garbage\n" + long + "\n" + good + "\n" + good // the last line has no newline
	var out bytes.Buffer
	c := newStdioConn(strings.NewReader(in), &out)
	msgs := readAll(t, c)
	if len(msgs) != 3 {
		t.Fatalf("passed on %d messages, want 3", len(msgs))
	}
	for _, m := range msgs {
		if r, ok := m.(*jsonrpc.Request); !ok || r.Method != "notifications/initialized" {
			t.Errorf("passed on %#v", m)
		}
	}
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("answered %q, want two error responses", out.Bytes())
	}
	if r := decodeReply(t, lines[0]); r.Error.Code != jsonrpc.CodeParseError {
		t.Errorf("garbage got %s", lines[0])
	}
	if r := decodeReply(t, lines[1]); r.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(r.Error.Message, "longer than") {
		t.Errorf("long line got %s", lines[1])
	}
}

// TestWithCode: an error answer the SDK would send with code 0 goes out
// with the code JSON-RPC asks for; any other answer goes out as it is.
func TestWithCode(t *testing.T) {
	id, _ := jsonrpc.MakeID(float64(4))
	for _, tc := range []struct {
		err  error
		code int64
	}{
		{errors.New(`handling 'initialize': unmarshaling "x"`), jsonrpc.CodeInvalidParams},
		{errors.New(`method "x" is invalid during session initialization`), jsonrpc.CodeInvalidRequest},
		{&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no"}, jsonrpc.CodeMethodNotFound},
		{fmt.Errorf("wrapped: %w", &jsonrpc.Error{Code: -32001, Message: "x"}), -32001},
	} {
		var out bytes.Buffer
		c := newStdioConn(strings.NewReader(""), &out)
		if err := c.Write(context.Background(), &jsonrpc.Response{ID: id, Error: tc.err}); err != nil {
			t.Fatal(err)
		}
		if r := decodeReply(t, out.Bytes()); r.Error.Code != tc.code || string(r.ID) != "4" || !bytes.HasSuffix(out.Bytes(), []byte("}\n")) {
			t.Errorf("%v written as %s, want code %d", tc.err, out.Bytes(), tc.code)
		}
	}
	var out bytes.Buffer
	c := newStdioConn(strings.NewReader(""), &out)
	ok := &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"text":"\"error\":{\"code\":0,"}`)}
	if err := c.Write(context.Background(), ok); err != nil || out.String() != `{"jsonrpc":"2.0","id":4,"result":{"text":"\"error\":{\"code\":0,"}}`+"\n" {
		t.Errorf("a result written as %s (%v)", out.String(), err)
	}
}

// FuzzCheck: every line is either passed on, and then the SDK decodes it
// as one message, or answered with a well-formed error response.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1e400,"method":"x"}`,
		`[1]`, `{"id":"\u0000"}`, `{"jsonrpc":"2.0","id":-0.5,"result":null}`, "\xff", `{}`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return
		}
		msg, resp := check(line)
		if (msg == nil) == (resp == nil) {
			t.Fatalf("check(%q) = %v, %q: want one of them", line, msg, resp)
		}
		if resp == nil {
			if _, err := jsonrpc.DecodeMessage(line); err != nil || !json.Valid(line) || line[0] == '[' {
				t.Fatalf("passed on %q, which the SDK cannot read: %v", line, err)
			}
			return
		}
		if !bytes.HasSuffix(resp, []byte("\n")) || bytes.Count(resp, []byte("\n")) != 1 {
			t.Fatalf("response %q is not one line", resp)
		}
		r := decodeReply(t, resp)
		if r.Error.Code != jsonrpc.CodeParseError && r.Error.Code != jsonrpc.CodeInvalidRequest {
			t.Fatalf("response %q has code %d", resp, r.Error.Code)
		}
	})
}

// TestDrain: at the end of the input, Read waits for the calls in flight
// to be answered (or cancelled) before it reports the end.
func TestDrain(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"b","method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}` + "\n"
	var out bytes.Buffer
	c := newStdioConn(strings.NewReader(in), &out)
	ctx := context.Background()
	for range 3 {
		if _, err := c.Read(ctx); err != nil {
			t.Fatalf("read: %v", err)
		}
	}
	ended := make(chan error)
	go func() {
		_, err := c.Read(ctx)
		ended <- err
	}()
	<-c.ended // the input has ended; the read waits for call 1
	// The server's own request with the same id does not end the call.
	id, _ := jsonrpc.MakeID(float64(1))
	if err := c.Write(ctx, &jsonrpc.Request{ID: id, Method: "roots/list"}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		t.Fatalf("the input ended (%v) with call 1 unanswered", err)
	default:
	}
	if err := c.Write(ctx, &jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; err != io.EOF {
		t.Fatalf("the end of input: %v, want io.EOF", err)
	}
}
