package progress

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestLineWaitsThenDrawsThenClears(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	l := newLine(&buf, "dream", "entries", 3000, c.now)
	l.Add(10)
	if buf.Len() != 0 {
		t.Fatalf("drew before the delay: %q", buf.String())
	}
	c.t = c.t.Add(Delay)
	l.Add(1490)
	if got, want := buf.String(), "\rdream: 1500/3000 entries (50%)"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	buf.Reset()
	l.Add(1) // too soon after the last draw
	if buf.Len() != 0 {
		t.Fatalf("redrew within %v: %q", every, buf.String())
	}
	l.Done()
	if got, want := buf.String(), "\r"+string(bytes.Repeat([]byte(" "), len("dream: 1500/3000 entries (50%)")))+"\r"; got != want {
		t.Fatalf("Done wrote %q, want %q", got, want)
	}
	buf.Reset()
	c.t = c.t.Add(time.Hour)
	l.Add(1)
	if buf.Len() != 0 {
		t.Fatalf("drew after Done: %q", buf.String())
	}
}

func TestNotATerminalPrintsNothing(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Fatal("a regular file is a terminal")
	}
	if l := New(f, "x", "items", 1); l != nil {
		t.Fatal("New gave a live line for a file")
	}
	var nilLine *Line
	nilLine.Add(1) // must not panic
	nilLine.Set(1, 2)
	nilLine.Done()
	if l := New(&bytes.Buffer{}, "x", "items", 1); l != nil {
		t.Fatal("New gave a live line for a buffer")
	}
}

// TestSetStartsARoundAgain: work that starts over (a dream that retries,
// a sync whose remote moved) sets a smaller count and never shows more
// than its total.
func TestSetStartsARoundAgain(t *testing.T) {
	var buf bytes.Buffer
	c := &fakeClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	l := newLine(&buf, "dream", "entries", 0, c.now)
	c.t = c.t.Add(Delay)
	l.Set(3000, 3000)
	c.t = c.t.Add(every)
	l.Set(1, 3000) // the second pass
	want := "\rdream: 3000/3000 entries (100%)\rdream: 1/3000 entries (0%)     "
	if got := buf.String(); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
