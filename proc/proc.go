// Package proc names one run of a program, so that a lock or temp file can
// record its holder and a later process can prove that holder gone.
//
// A PID alone is reused once its process ends, so an ID also records when
// the process started (Linux's /proc/PID/stat field 22). Where the start
// time cannot be read, nothing is provably gone except a PID that no
// process has.
package proc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// ID is one run of a program: its PID and when it started.
type ID struct {
	PID int
	// Start is the start time in clock ticks since boot, "" when unknown.
	Start string
}

// Self is this process.
func Self() ID {
	p := os.Getpid()
	start, _ := stat(p)
	return ID{PID: p, Start: start}
}

// Of is the process that has pid now (its start time read once), or an ID
// with no start time when no such process is readable.
func Of(pid int) ID {
	start, _ := stat(pid)
	return ID{PID: pid, Start: start}
}

// String is "PID START" (or "PID" when the start is unknown), the form
// Parse reads back.
func (p ID) String() string {
	if p.Start == "" {
		return strconv.Itoa(p.PID)
	}
	return strconv.Itoa(p.PID) + " " + p.Start
}

// Parse reads what String wrote; ok is false for text that names no PID.
func Parse(s string) (ID, bool) {
	f := strings.Fields(s)
	if len(f) == 0 || len(f) > 2 {
		return ID{}, false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return ID{}, false
	}
	id := ID{PID: pid}
	if len(f) == 2 {
		id.Start = f[1]
	}
	return id, true
}

// Gone reports whether the process has provably ended: no process has its
// PID, or the one that has it started at another time, or it is a zombie.
// This process is never gone.
func (p ID) Gone() bool {
	if p.PID <= 0 {
		return false
	}
	if p.PID == os.Getpid() {
		return false
	}
	if !exists(p.PID) {
		return true
	}
	if p.Start == "" {
		return false
	}
	now, zombie := stat(p.PID)
	if now == "" {
		// The process exists but /proc is unreadable: not provable.
		return false
	}
	return now != p.Start || zombie
}

// Alive reports whether a process with this PID may be running: it
// exists, or belongs to another user. It is the PID-only rule, for files
// that record no start time.
func Alive(pid int) bool {
	return pid > 0 && exists(pid)
}

// stat reads a process's start time and whether it is a zombie from
// /proc/PID/stat (Linux); elsewhere, or for no such process, "".
func stat(pid int) (string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses,
	// so the fields are counted from the last ')'. State is field 3,
	// starttime field 22.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return "", false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 20 {
		return "", false
	}
	return string(f[19]), string(f[0]) == "Z"
}
