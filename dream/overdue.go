package dream

import (
	"fmt"
	"time"

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

// Overdue reports whether a dream of the memory directory d is overdue at
// now, and why. It reads only the daily logs, the dream state and the
// lock: cheap enough for a session start. A dream that is running is
// never overdue.
func Overdue(d *memdir.Dir, now time.Time) (bool, string, error) {
	st, err := readLock(d.Path)
	if err != nil {
		return false, "", err
	}
	if st.held(now) != nil {
		return false, "", nil
	}
	state, err := loadState(d.Path)
	if err != nil {
		return false, "", err
	}
	all, _, err := dailylog.Read(d.Path, "", "")
	if err != nil {
		return false, "", err
	}
	waiting := len(state.pending(all))
	last := st.mtime
	switch {
	case waiting == 0:
		return false, "", nil
	case waiting >= OverdueEntries:
		return true, fmt.Sprintf("%d log entries wait for a dream", waiting), nil
	case last.IsZero():
		return true, fmt.Sprintf("%d log entries wait and memory never dreamed", waiting), nil
	case now.Sub(last) >= OverdueAge:
		return true, fmt.Sprintf("%d log entries wait and the last dream was %s ago", waiting, now.Sub(last).Round(time.Hour)), nil
	}
	return false, "", nil
}
