package dailylog

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/typesx"
)

// Append adds e to the log of now's date (in now's own location) and
// returns the log's path. An empty e.Time becomes now's "15:04"; e.Date is
// ignored. The entry goes out in one write(2) on a file opened with
// O_APPEND, then the file is synced: a new file gets its "# YYYY-MM-DD"
// heading in that same write, and a file whose last line lacks a newline
// gets one first. Missing directories are created.
//
// Append takes no lock. Concurrent appends never interleave within an entry
// on local file systems, but the heading and newline checks assume the
// caller holds the store's lock.
func Append(memDir string, now time.Time, e Entry) (string, error) {
	if e.Time == "" {
		e.Time = now.Format("15:04")
	}
	if err := validate(e); err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	path := Path(memDir, now)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	defer f.Close()
	prefix, fresh, err := appendPrefix(f, now)
	if err != nil {
		return "", fmt.Errorf("append to %s: %w", path, err)
	}
	if _, err := f.Write([]byte(prefix + Format(e))); err != nil {
		return "", fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("append to %s: sync: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("append to %s: close: %w", path, err)
	}
	if fresh {
		// The file, and maybe its month and year directories, are new:
		// make their names durable too.
		for d, i := dir, 0; i < 3; d, i = filepath.Dir(d), i+1 {
			if err := atomicfile.SyncDir(d); err != nil {
				return "", fmt.Errorf("append log entry: %w", err)
			}
		}
	}
	return path, nil
}

// appendPrefix returns what must precede the entry in f: the heading for an
// empty file (fresh is then true), a newline after an unterminated line.
func appendPrefix(f *os.File, now time.Time) (prefix string, fresh bool, err error) {
	fi, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	if fi.Size() == 0 {
		return "# " + now.Format(DateLayout) + "\n\n", true, nil
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil && err != io.EOF {
		return "", false, err
	}
	if last[0] != '\n' {
		return "\n", false, nil
	}
	return "", false, nil
}

// validate checks the parts of e that Format cannot write safely.
func validate(e Entry) error {
	if e.Type != "" && !e.Type.Valid() {
		return &typesx.UnknownTypeError{Name: string(e.Type)}
	}
	if _, rest, ok := cutTime(e.Time); !ok || rest != "" {
		return fmt.Errorf("%q: %w", e.Time, ErrInvalidTime)
	}
	if trimSpace(e.Title) == "" && strings.TrimSpace(e.Text) == "" {
		return ErrEmptyEntry
	}
	return nil
}
