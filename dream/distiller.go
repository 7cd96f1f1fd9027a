package dream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// DefaultDistillerTimeout bounds an external distiller when the
// dream.distiller_timeout setting is 0 or unset.
const DefaultDistillerTimeout = 10 * time.Minute

// maxAnswerBytes bounds what memdir reads from an external distiller; a
// variable so that tests can lower it.
var maxAnswerBytes = 64 << 20

// distillerRun is one run of an external distiller command.
type distillerRun struct {
	argv    []string
	dir     string
	env     []string
	stdin   []byte
	timeout time.Duration
	stderr  io.Writer // besides the tail kept for the error message
}

// run starts the distiller in a process group of its own and returns what
// it printed. At the time limit, when ctx ends or when the answer grows
// past maxAnswerBytes, the whole group is killed, so a child the
// distiller left holding its output cannot keep the dream waiting; a
// process that left the group is cut off by closing the pipes soon after.
func (r *distillerRun) run(parent context.Context) ([]byte, error) {
	timeout := r.timeout
	if timeout <= 0 {
		timeout = DefaultDistillerTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.argv[0], r.argv[1:]...)
	cmd.Dir = r.dir
	cmd.Env = r.env
	cmd.Stdin = bytes.NewReader(r.stdin)
	ownProcessGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = min(max(timeout/10, 100*time.Millisecond), 5*time.Second)
	out := &answerBuffer{max: maxAnswerBytes, over: cancel}
	tail := &tailBuffer{max: 2048}
	cmd.Stdout = out
	cmd.Stderr = tail
	if r.stderr != nil {
		cmd.Stderr = io.MultiWriter(r.stderr, tail)
	}
	err := cmd.Run()
	_ = killGroup(cmd) // whatever the distiller left running is not wanted
	name := r.argv[0]
	switch {
	case out.tooBig():
		return nil, &AnswerError{Msg: fmt.Sprintf("the answer is over the %d-byte limit (the distiller was stopped)", maxAnswerBytes)}
	case parent.Err() != nil:
		return nil, fmt.Errorf("distiller %s: %w; nothing was changed", name, parent.Err())
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("distiller %s timed out after %s (dream.distiller_timeout); it and its child processes were stopped, nothing was changed", name, timeout)
	case errors.Is(err, exec.ErrWaitDelay):
		// It exited well but something it started kept its output open
		// past WaitDelay: the answer it printed is whole.
	case err != nil:
		msg := strings.TrimSpace(tail.String())
		if msg != "" {
			msg = ": " + msg
		}
		return nil, fmt.Errorf("distiller %s: %w%s; nothing was changed", name, err, msg)
	}
	return out.Bytes(), nil
}

// answerBuffer keeps a distiller's answer up to max bytes. Past it, it
// calls over (which stops the distiller) and swallows the rest: refusing
// the write would kill the distiller with SIGPIPE and hide the reason.
type answerBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	max  int
	over func()
	big  bool
}

func (a *answerBuffer) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.big {
		return len(p), nil
	}
	if a.buf.Len()+len(p) > a.max {
		a.big = true
		a.over()
		return len(p), nil
	}
	return a.buf.Write(p)
}

func (a *answerBuffer) tooBig() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.big
}

func (a *answerBuffer) Bytes() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.buf.Bytes()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
