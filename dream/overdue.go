package dream

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/memdir"
)

// When a session start may start a dream in log mode: with entries
// waiting, once OverdueEntries of them have piled up or once the last
// dream is OverdueAge old (or there never was one).
const (
	OverdueEntries = 20
	OverdueAge     = 72 * time.Hour
)

// seenPath records the log count (dailylog.Appended) a dream read before
// it read the logs: the entries counted since wait for a dream. It is
// written after the state, so a dream killed in between leaves it behind
// the state (entries counted as waiting that are not: one dream too
// many), never ahead of it.
const seenPath = stateDir + "/seen"

// Overdue reports whether a dream of the memory directory d is overdue at
// now, and why. A dream that is running is never overdue.
//
// It reads no log: a session start must not grow with history. The
// entries waiting are the log count (dailylog.CountFile, kept by the log
// writer) less the count the last dream saw (seenPath, kept by the
// dream). Entries the count does not hold (written by another tool,
// pulled by a sync) and a count or stamp that is missing or damaged fall
// back to the logs' modification times against the last dream's, read
// only when the answer depends on them: a log changed since makes a
// dream due by age, or at once when the stamp is gone, so that the dream
// rebuilds it.
func Overdue(d *memdir.Dir, now time.Time) (bool, string, error) {
	st, err := readLock(d.Path)
	if err != nil {
		return false, "", err
	}
	if st.held(now) != nil {
		return false, "", nil
	}
	last := st.mtime
	n, _, err := dailylog.Appended(d.Path)
	if err != nil {
		return false, "", err
	}
	seen, ok := readSeen(d.Path)
	if last.IsZero() && !ok {
		seen, ok = 0, true // never dreamed: every counted entry waits
	}
	ago := now.Sub(last).Round(time.Hour)
	trusted := ok && n >= seen
	if trusted {
		switch waiting := n - seen; {
		case waiting >= OverdueEntries:
			return true, fmt.Sprintf("%d log entries wait for a dream", waiting), nil
		case waiting > 0 && last.IsZero():
			return true, fmt.Sprintf("%d log entries wait and memory never dreamed", waiting), nil
		case waiting > 0 && now.Sub(last) >= OverdueAge:
			return true, fmt.Sprintf("%d log entries wait and the last dream was %s ago", waiting, ago), nil
		case waiting > 0 || !last.IsZero() && now.Sub(last) < OverdueAge:
			return false, "", nil
		}
	}
	// Nothing counted waits, or the count cannot be trusted: a log
	// changed since the last dream holds entries the count does not.
	changed, err := dailylog.ChangedSince(d.Path, last)
	if err != nil || !changed {
		return false, "", err
	}
	switch {
	case !trusted:
		return true, "the logs changed since the last dream, whose log count is missing: dreaming rebuilds it", nil
	case last.IsZero():
		return true, "log entries wait and memory never dreamed", nil
	}
	return true, fmt.Sprintf("log entries wait and the last dream was %s ago", ago), nil
}

// readSeen returns the log count the last dream saw; ok is false when
// there is none or it is damaged.
func readSeen(dir string) (n int64, ok bool) {
	data, err := atomicfile.ReadInside(dir, seenPath)
	if err != nil {
		return 0, false
	}
	n, err = strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil && n >= 0
}
