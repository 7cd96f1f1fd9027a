package mcpserver

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
)

// syncBuffer is a buffer written by the server and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// heldServer is a server whose calls wait, once they resolve their
// project, until release is closed; opened says one has.
func heldServer(t *testing.T, grace time.Duration, log io.Writer) (*Server, chan struct{}, chan struct{}) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "memory")
	opened, release := make(chan struct{}, 8), make(chan struct{})
	s, err := New(Options{Grace: grace, Log: log, Open: func(string, Agent) (*Project, error) {
		opened <- struct{}{}
		<-release
		return &Project{Dir: memdir.Open(dir, memdir.Live)}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s, opened, release
}

const listCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_list","arguments":{}}}`

// TestServeAnswersAfterEOF: a client that sends its requests and closes
// its input gets every answer before Serve returns.
func TestServeAnswersAfterEOF(t *testing.T) {
	s, opened, release := heldServer(t, time.Hour, nil)
	in := strings.NewReader(initLine + "\n" + initializedLine + "\n" + listCall + "\n")
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), in, &out) }()
	<-opened // the call runs, and the input has ended
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if !strings.Contains(out.String(), `"id":2,"result"`) {
		t.Errorf("no answer to the call after the input ended:\n%s", out.String())
	}
}

// TestServeGrace: once the input ends or the context is done, a call that
// never answers is given one grace period; then Serve returns, says so,
// and writes nothing more.
func TestServeGrace(t *testing.T) {
	for _, how := range []string{"eof", "cancel"} {
		t.Run(how, func(t *testing.T) {
			var log syncBuffer
			s, opened, release := heldServer(t, time.Millisecond, &log)
			t.Cleanup(func() { close(release) })
			lines := initLine + "\n" + initializedLine + "\n" + listCall + "\n"
			var in io.Reader = strings.NewReader(lines)
			if how == "cancel" {
				r, w := io.Pipe()
				t.Cleanup(func() { w.Close() })
				go io.WriteString(w, lines) // and the input stays open
				in = r
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out syncBuffer
			done := make(chan error, 1)
			go func() { done <- s.Serve(ctx, in, &out) }()
			<-opened
			if how == "cancel" {
				cancel()
			}
			if err := <-done; err != nil {
				t.Fatalf("Serve: %v", err)
			}
			if strings.Contains(out.String(), `"id":2,`) {
				t.Errorf("the held call was answered: %s", out.String())
			}
			if !strings.Contains(log.String(), "calls still running 1ms later are abandoned") {
				t.Errorf("log %q: want the abandoned calls said", log.String())
			}
		})
	}
}
