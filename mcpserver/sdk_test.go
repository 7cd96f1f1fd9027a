package mcpserver

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests run the SDK's own stdio transport (mcp.IOTransport) with no
// memdir code between it and the client, and show each behaviour that
// stdioConn stands in for. When one of them fails, the SDK has changed:
// drop what stdioConn does about it (its doc comment lists each).

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// bareSDK is an SDK server with one tool, wait, that tells started it
// runs and returns only when its context ends, saying why on cause.
type bareSDK struct {
	in      *io.PipeWriter
	out     *bufio.Scanner
	done    chan error
	started chan struct{}
	cause   chan error
}

func newBareSDK(t *testing.T) *bareSDK {
	t.Helper()
	b := &bareSDK{done: make(chan error, 1), started: make(chan struct{}), cause: make(chan error, 1)}
	srv := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	type noArgs struct{}
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		close(b.started)
		<-ctx.Done()
		b.cause <- context.Cause(ctx)
		return nil, nil, ctx.Err()
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	b.in, b.out = inW, bufio.NewScanner(outR)
	go func() {
		b.done <- srv.Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); <-b.done })
	return b
}

func (b *bareSDK) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(b.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (b *bareSDK) next(t *testing.T) string {
	t.Helper()
	if !b.out.Scan() {
		t.Fatalf("the SDK wrote nothing more: %v", b.out.Err())
	}
	return b.out.Text()
}

// rest is everything the SDK writes until the session ends.
func (b *bareSDK) rest() string {
	var lines []string
	for b.out.Scan() {
		lines = append(lines, b.out.Text())
	}
	return strings.Join(lines, "\n")
}

// TestSDKEndsSessionOnBadLine: a line that is not JSON, JSON that is not
// a JSON-RPC message, or a batch (on protocol 2025-06-18) ends the SDK's
// session with a read error and no answer, where JSON-RPC wants an error
// response and the session to go on.
func TestSDKEndsSessionOnBadLine(t *testing.T) {
	for _, bad := range []string{"not json", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`} {
		t.Run(bad, func(t *testing.T) {
			b := newBareSDK(t)
			b.send(t, initLine)
			b.next(t)
			b.send(t, bad)
			// The SDK may have closed its input already: a failed write is
			// its answer too.
			_, _ = io.WriteString(b.in, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
			rest := b.rest() // until the session ends
			err := <-b.done
			b.done <- err
			if err == nil || errors.Is(err, io.EOF) || rest != "" {
				t.Errorf("the SDK now goes on after a bad line (session ended with %v, wrote %q): stdioConn need not answer bad lines itself", err, rest)
			}
		})
	}
}

// TestSDKErrorCodeZero: the SDK answers an initialize whose params do not
// decode, and a request before initialize, with error code 0.
func TestSDKErrorCodeZero(t *testing.T) {
	b := newBareSDK(t)
	b.send(t, `{"jsonrpc":"2.0","id":4,"method":"initialize","params":"nope"}`)
	if got := b.next(t); !strings.Contains(got, `"error":{"code":0,`) {
		t.Errorf("bad initialize params answered %s: if the code is right, withCode can go", got)
	}
	b.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`)
	if got := b.next(t); !strings.Contains(got, `"error":{"code":0,`) {
		t.Errorf("a request before initialize answered %s: if the code is right, withCode can go", got)
	}
}

// TestSDKDropsAnswersAtEOF: when the input ends, the SDK cancels the
// calls still running (their context's cause is io.EOF) and writes none
// of their answers.
func TestSDKDropsAnswersAtEOF(t *testing.T) {
	b := newBareSDK(t)
	b.send(t, initLine)
	b.next(t)
	b.send(t, initializedLine)
	b.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	<-b.started
	b.in.Close()
	cause := <-b.cause // a fixed SDK lets the call run: this waits forever
	rest := b.rest()
	if !errors.Is(cause, io.EOF) || strings.Contains(rest, `"id":2`) {
		t.Errorf("at the end of input the call ended with %v and the SDK wrote %q: if it answers, stdioConn's drain can go", cause, rest)
	}
}
