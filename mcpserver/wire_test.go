package mcpserver

import (
	"bytes"
	"encoding/json"
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

// TestLineFilter: good lines reach the SDK one per line, bad ones are
// answered, blank ones dropped, and an over-long line is answered and
// skipped without losing the next one.
func TestLineFilter(t *testing.T) {
	good := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxMessageBytes) + `"}}`
	in := "\r\n" + good + "\r\n\n  garbage\n" + long + "\n" + good + "\n" + good // the last line has no newline
	var out bytes.Buffer
	f := newLineFilter(strings.NewReader(in), &syncWriter{w: &out}, newFlight())
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Repeat(good+"\n", 3); string(got) != want {
		t.Errorf("passed on %q, want %q", got, want)
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

func TestFixCode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		code int64
	}{
		{`{"jsonrpc":"2.0","id":4,"error":{"code":0,"message":"handling 'initialize': unmarshaling \"x\""}}`, jsonrpc.CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":5,"error":{"code":0,"message":"method \"x\" is invalid during session initialization"}}`, jsonrpc.CodeInvalidRequest},
	} {
		var w bytes.Buffer
		if _, err := (&syncWriter{w: &w}).Write([]byte(tc.in + "\n")); err != nil {
			t.Fatal(err)
		}
		if r := decodeReply(t, w.Bytes()); r.Error.Code != tc.code || !bytes.HasSuffix(w.Bytes(), []byte("}\n")) {
			t.Errorf("%s written as %s, want code %d", tc.in, w.Bytes(), tc.code)
		}
	}
	// Anything else goes out byte for byte, even text that looks like it.
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\"error\":{\"code\":0,"}]}}` + "\n",
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}` + "\n",
	} {
		var w bytes.Buffer
		if _, err := (&syncWriter{w: &w}).Write([]byte(s)); err != nil || w.String() != s {
			t.Errorf("%s written as %s", s, w.String())
		}
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

// TestDrain: at the end of the input, the filter waits for the calls in
// flight to be answered (or cancelled) before it reports the end.
func TestDrain(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"b","method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}` + "\n"
	fl := newFlight()
	var out bytes.Buffer
	w := &syncWriter{w: &out, flight: fl}
	f := newLineFilter(strings.NewReader(in), w, fl)
	// Read the three lines as the SDK would, then wait for the end.
	var got []byte
	buf := make([]byte, 1<<10)
	for bytes.Count(got, []byte("\n")) < 3 {
		n, err := f.Read(buf)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		got = append(got, buf[:n]...)
	}
	ended := make(chan error)
	go func() {
		_, err := f.Read(buf)
		ended <- err
	}()
	// The server's own request with the same id does not end the call.
	if _, err := w.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"roots/list"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		t.Fatalf("the input ended (%v) with call 1 unanswered", err)
	default:
	}
	if _, err := w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; err != io.EOF {
		t.Fatalf("the end of input: %v, want io.EOF", err)
	}
}
