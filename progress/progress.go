// Package progress shows how far long work has come: on a terminal, one
// line rewritten in place ("dream: 1200/3000 entries"), shown only once
// the work has taken a second and cleared when it ends; when the output
// is not a terminal, nothing at all, so scripts and logs see only the
// result. It depends on golang.org/x/sys alone (already linked), so its
// start-up cost is nil.
//
// Long work (a dream, a sync, an import, an index build) calls it so:
//
//	bar := progress.New(stderr, "dream", "entries", len(entries))
//	defer bar.Done()
//	for _, e := range entries {
//		distill(e)
//		bar.Add(1)
//	}
//
// and prints its per-item lines only without --quiet. The line goes to
// the error stream, so standard output stays the result.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Delay is how long work runs before its line appears.
const Delay = time.Second

// every is the least time between two redraws.
const every = 100 * time.Millisecond

// Line is the progress line of one piece of work. A nil *Line, or one
// made for a writer that is not a terminal, does nothing; every method is
// safe for concurrent use.
type Line struct {
	mu     sync.Mutex
	w      io.Writer
	label  string
	unit   string
	total  int
	done   int
	start  time.Time
	drawn  time.Time
	width  int
	now    func() time.Time
	closed bool
}

// New returns the progress line for work called label that counts total
// units (0 when the total is unknown) on w: a live line when w is a
// terminal, else a Line that prints nothing.
func New(w io.Writer, label, unit string, total int) *Line {
	f, ok := w.(*os.File)
	if !ok || !IsTerminal(f) {
		return nil
	}
	return newLine(w, label, unit, total, time.Now)
}

// newLine is New for any writer and clock (tests draw into a buffer).
func newLine(w io.Writer, label, unit string, total int, now func() time.Time) *Line {
	return &Line{w: w, label: label, unit: unit, total: total, now: now, start: now()}
}

// Add counts n more units done and redraws when it is time to.
func (l *Line) Add(n int) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done += n
	l.draw()
}

// Set says how far the work has come: done of total units (total 0
// when unknown). Work that starts a round again sets a smaller done.
func (l *Line) Set(done, total int) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done, l.total = done, total
	l.draw()
}

// Done clears the line, if it was shown; the line prints nothing more.
func (l *Line) Done() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.width > 0 {
		fmt.Fprintf(l.w, "\r%s\r", strings.Repeat(" ", l.width))
	}
	l.closed, l.width = true, 0
}

// draw writes the line when the work has run for Delay and the last draw
// is old enough.
func (l *Line) draw() {
	if l.closed {
		return
	}
	t := l.now()
	if t.Sub(l.start) < Delay || t.Sub(l.drawn) < every {
		return
	}
	l.drawn = t
	text := fmt.Sprintf("%s: %d %s", l.label, l.done, l.unit)
	if l.total > 0 {
		text = fmt.Sprintf("%s: %d/%d %s (%d%%)", l.label, l.done, l.total, l.unit, l.done*100/l.total)
	}
	pad := ""
	if n := l.width - len(text); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(l.w, "\r%s%s", text, pad)
	l.width = len(text)
}
