package dailylog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memdir/memdir/atomicfile"
)

// CountFile, in the memory directory, counts the entries Append wrote:
// one byte each, appended with O_APPEND after the entry is synced, so its
// size is the count, however many processes append at once, and a
// process killed at any point leaves it a whole count. It is derived
// data in the memory directory's private state directory (which Append
// never creates): a session start compares it with what the last dream
// saw instead of reading every log. A kill between an entry and its byte
// leaves that entry uncounted; entries written by other tools, or pulled
// by a sync, are not counted either: readers check log times too.
const CountFile = ".memdir/log-count"

// Appended returns how many entries Append has counted in memDir's
// CountFile; ok is false when there is no count yet.
func Appended(memDir string) (n int64, ok bool, err error) {
	fi, err := atomicfile.StatInside(memDir, filepath.FromSlash(CountFile))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read log count: %w", err)
	}
	return fi.Size(), true, nil
}

// count adds one entry to the count. It never fails the append, which is
// already durable: a count that could not be kept undercounts by one.
func count(memDir string) {
	f, err := atomicfile.OpenFileInside(memDir, filepath.FromSlash(CountFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return // no state directory (not initialised), or a full disk
	}
	_, _ = f.Write([]byte{'\n'})
	_ = f.Close()
}

// ChangedSince reports whether a log Files lists was modified after t
// (any log when t is zero). It reads the logs' names and times, never
// their content, and stops at the first.
func ChangedSince(memDir string, t time.Time) (bool, error) {
	changed := false
	err := walkLogs(memDir, func(_ string, d fs.DirEntry) error {
		fi, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed since it was listed
		}
		if err != nil {
			return err
		}
		if t.IsZero() || fi.ModTime().After(t) {
			changed = true
			return fs.SkipAll
		}
		return nil
	})
	return changed, err
}
