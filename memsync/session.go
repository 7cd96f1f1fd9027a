package memsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// StampFile is touched when a background sync starts and when a sync
// succeeds: its modification time is the last sync, so a session start
// does not start another one within MinInterval.
const StampFile = "sync/last"

// MinInterval is how long after the last sync a session start leaves the
// remote alone.
const MinInterval = 5 * time.Minute

// LastSync returns when a sync last started in the background or
// succeeded; the zero time when none did.
func LastSync(home string) time.Time {
	return stampTime(filepath.Join(home, filepath.FromSlash(StampFile)))
}

func stampTime(name string) time.Time {
	fi, err := os.Stat(name)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// markSync records now as the last sync.
func markSync(home string, now time.Time) error {
	return touch(filepath.Join(home, filepath.FromSlash(StampFile)), now)
}

// touch sets the stamp file name's modification time to now.
func touch(name string, now time.Time) error {
	err := os.Chtimes(name, now, now)
	if errors.Is(err, fs.ErrNotExist) {
		var f *os.File
		_ = os.MkdirAll(filepath.Dir(name), 0o700)
		if f, err = os.OpenFile(name, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			f.Close()
			err = os.Chtimes(name, now, now)
		}
	}
	if err != nil {
		return fmt.Errorf("record the last sync: %w", err)
	}
	return nil
}

// ClaimBackground reports whether a background sync should start now: a
// remote is set and the last sync is at least MinInterval old. When it
// should, the start is recorded at once, so sessions that start together
// start one sync between them, and a remote that keeps failing is tried
// once per MinInterval, not once per session.
func ClaimBackground(home string, now time.Time) (bool, error) {
	url, err := Remote(home)
	if err != nil || url == "" {
		return false, err
	}
	return claim(filepath.Join(home, filepath.FromSlash(StampFile)), now)
}

// ClaimTeamBackground is ClaimBackground for the team remote url, an
// accepted one: each team remote keeps its own stamp, so a session in
// one project does not hold back another project's team sync.
func ClaimTeamBackground(home, url string, now time.Time) (bool, error) {
	return claim(teamStamp(home, url), now)
}

func teamStamp(home, url string) string {
	return filepath.Join(TeamState(home, url), "last")
}

func claim(stamp string, now time.Time) (bool, error) {
	if last := stampTime(stamp); !last.IsZero() && now.Sub(last) < MinInterval && !last.After(now) {
		return false, nil
	}
	return true, touch(stamp, now)
}
