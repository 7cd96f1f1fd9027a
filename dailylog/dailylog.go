// Package dailylog keeps the append-only daily logs of log mode: one
// markdown file per local day under logs/YYYY/MM/YYYY-MM-DD.md in the memory
// directory, each a "# YYYY-MM-DD" heading followed by bullet entries:
//
//	# 2026-11-22
//
//	- 10:04 [feedback] Testing policy: Integration tests hit a real database.
//	  Why: a mocked suite passed while the production migration failed.
//	- 11:02 remember that staging deploys need the VPN
//
// Every part of an entry but the bullet is optional: the time ("HH:MM",
// "H:MM" or "HH:MM:SS"), the [type] (one of typesx.Types, any case), the
// title (a short phrase before ": ", or any text in "**Title**:") and the
// text, which may continue on indented lines. Format writes entries so that
// Parse reads back the same time, type, title and text: a title that would be
// misread is written in bold with "\" before "\" and "*", and a text whose
// start would be misread gets one leading "\", which Parse drops.
//
// Append writes one whole entry with a single O_APPEND write; the caller
// holds the store's lock. Parse is tolerant of what people and agents write
// by hand, and Read gathers the entries of a date range.
package dailylog

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/typesx"
)

// DateLayout is the layout of the dates in log file names and headings.
const DateLayout = "2006-01-02"

var (
	// ErrEmptyEntry reports an entry with neither a title nor a text.
	ErrEmptyEntry = errors.New("empty log entry: give a title or a text")
	// ErrInvalidTime reports an entry time that is not HH:MM or HH:MM:SS.
	ErrInvalidTime = errors.New("invalid time: use HH:MM or HH:MM:SS")
	// ErrInvalidDate reports a date that is not YYYY-MM-DD. It is the
	// user's input, so the CLI exits 2 on it.
	ErrInvalidDate error = inputError("invalid date: use YYYY-MM-DD")
)

// inputError is a sentinel that marks the user's input.
type inputError string

func (e inputError) Error() string { return string(e) }

// UserError marks the error as the user's input (exit 2).
func (inputError) UserError() {}

// Entry is one entry of a daily log.
type Entry struct {
	// Date is the log's day, "2026-11-22", from the file's "# date" heading
	// or else its name.
	Date string `json:"date"`
	// Time is "10:04" or "10:04:05", or "" when the entry had none.
	Time string `json:"time,omitempty"`
	// Type is the entry's content type, or "" when it was untyped.
	Type typesx.Type `json:"type,omitempty"`
	// Title is the entry's title, or "" when it had none.
	Title string `json:"title,omitempty"`
	// Text is the body: the rest of the first line, then the continuation
	// lines with their common indentation removed, joined with "\n".
	Text string `json:"text"`
	// File is the log's path relative to the memory directory, with
	// forward slashes: "logs/2026/11/2026-11-22.md".
	File string `json:"file"`
	// Line is the 1-based line of the entry's bullet.
	Line int `json:"line"`
	// Offset and End are the byte range of the whole entry in the file,
	// from the start of its bullet line to the end of its last line
	// (newline included, trailing blank lines excluded).
	Offset int64 `json:"offset"`
	End    int64 `json:"end"`
	// Hash is Hash(e): equal for entries with the same date, time, type,
	// title and text.
	Hash string `json:"hash"`
}

// Hash returns a short stable fingerprint of e's content: the first 16 hex
// digits of the SHA-256 of Date, Time, Type, Title and Text joined by NUL
// bytes. Where the entry sits in its file does not change it, so identical
// entries on the same day hash the same.
func Hash(e Entry) string {
	h := sha256.New()
	for _, s := range []string{e.Date, e.Time, string(e.Type), e.Title, e.Text} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Problem is something odd Parse or Read found and worked around.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// String returns "file:line: message", leaving out a zero line.
func (p Problem) String() string {
	if p.Line == 0 {
		return fmt.Sprintf("%s: %s", p.File, p.Message)
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
}

// Path returns the log file of day's date, in day's own location:
// <memDir>/logs/YYYY/MM/YYYY-MM-DD.md.
func Path(memDir string, day time.Time) string {
	return filepath.Join(memDir, "logs", day.Format("2006"), day.Format("01"), day.Format(DateLayout)+".md")
}

// validDate reports whether s is a calendar date in DateLayout.
func validDate(s string) bool {
	if len(s) != len(DateLayout) {
		return false
	}
	_, err := time.Parse(DateLayout, s)
	return err == nil
}

// dateOfFile returns the date in a log file's name, or "": a daily log
// YYYY-MM-DD.md, or a per-session log in a day's directory,
// logs/YYYY/MM/DD/<id>-<title>.md (the layout Claude Code's dream reads).
func dateOfFile(name string) string {
	base := filepath.Base(filepath.FromSlash(name))
	if filepath.Ext(base) != ".md" {
		return ""
	}
	d := base[:len(base)-len(".md")]
	if validDate(d) {
		return d
	}
	return sessionDate(name)
}

// sessionDate returns the date of a per-session log from its YYYY/MM/DD
// directories, or "".
func sessionDate(name string) string {
	parts := strings.Split(filepath.ToSlash(name), "/")
	if len(parts) < 4 || strings.HasPrefix(parts[len(parts)-1], ".") {
		return ""
	}
	d := strings.Join(parts[len(parts)-4:len(parts)-1], "-")
	if !validDate(d) {
		return ""
	}
	return d
}
