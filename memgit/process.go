package memgit

import (
	"bytes"
	"os"
	"strconv"
)

// process names one run of a program: its PID and when it started (a
// PID alone is reused once the process is gone).
type process struct {
	pid   int
	start string // the start time in clock ticks since boot; "" when unknown
}

// self is this process.
func self() process {
	p := os.Getpid()
	return process{pid: p, start: startTime(p)}
}

// gone reports whether the process has provably ended: no process has
// its PID, or the one that has started at another time, or it is a
// zombie. Without a known start time nothing is provable.
func (p process) gone() bool {
	if p.start == "" || p.start == "-" {
		return false
	}
	now, zombie := procStat(p.pid)
	return now != p.start || zombie
}

// startTime is when a process started, or "" when that cannot be known.
func startTime(pid int) string {
	start, _ := procStat(pid)
	return start
}

// procStat reads a process's start time and whether it is a zombie from
// /proc/PID/stat (Linux); elsewhere, or for no such process, "".
func procStat(pid int) (string, bool) {
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
