package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// DrainTimeout bounds how long the server, once the client has closed its
// input, waits for the requests still running to answer.
const DrainTimeout = 30 * time.Second

// flight tracks the client's requests that have not been answered yet, so
// that the end of the input (a client that sends its last requests and
// closes the pipe, as a script does) lets them finish and answer before
// the session ends, instead of cutting a write short and losing replies.
type flight struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending map[string]bool
	over    bool // the wait gave up or the connection closed
}

func newFlight() *flight {
	f := &flight{pending: map[string]bool{}}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// idKey names a request id the same way whichever side wrote it.
func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// rawIDKey is idKey for an id as JSON.
func rawIDKey(raw []byte) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil || !id.IsValid() {
		return "", false
	}
	return idKey(id), true
}

// incoming notes a message the SDK is about to read: a call starts, a
// notifications/cancelled ends the call it names (no answer will come).
func (f *flight) incoming(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	if req.IsCall() {
		f.mu.Lock()
		f.pending[idKey(req.ID)] = true
		f.mu.Unlock()
		return
	}
	if req.Method == "notifications/cancelled" {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if k, ok := rawIDKey(p.RequestID); ok {
				f.done(k)
			}
		}
	}
}

// outgoing notes a line the server writes: a response ends its call.
func (f *flight) outgoing(line []byte) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"jsonrpc":"2.0","id":`))
	if !ok {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return
	}
	after := rest[dec.InputOffset():]
	if !bytes.HasPrefix(after, []byte(`,"result"`)) && !bytes.HasPrefix(after, []byte(`,"error"`)) {
		return // a request of the server's own (roots/list)
	}
	if k, ok := rawIDKey(raw); ok {
		f.done(k)
	}
}

func (f *flight) done(k string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.pending, k)
	f.cond.Broadcast()
}

// drain waits until every call has been answered, the connection closed or
// DrainTimeout passed.
func (f *flight) drain() {
	t := time.AfterFunc(DrainTimeout, f.stop)
	defer t.Stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.pending) > 0 && !f.over {
		f.cond.Wait()
	}
}

// stop ends any wait.
func (f *flight) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.over = true
	f.cond.Broadcast()
}
