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
// ignored. The entry goes out in one write on a file opened with O_APPEND,
// then the file is synced: a new file gets its "# YYYY-MM-DD" heading in
// that same write, and a file whose last line lacks a newline gets one
// first. Missing directories are created.
//
// An entry is whole or absent: when the write or the sync fails (a full
// disk), the file is truncated back to its size before the append and the
// size checked again, so no fragment is left for a dream to distill. The
// log and its directories are opened inside memDir and never through a
// symlink that leads out of it (atomicfile.ErrOutside).
//
// Append takes no lock. Concurrent appends never interleave within an entry
// on local file systems, but the heading and newline checks, and the
// truncation after a failure, assume the caller holds the store's lock.
// Each entry written is counted in CountFile, after it is durable.
func Append(memDir string, now time.Time, e Entry) (string, error) {
	if e.Time == "" {
		e.Time = now.Format("15:04")
	}
	if err := validate(e); err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	path := Path(memDir, now)
	rel, err := filepath.Rel(memDir, path)
	if err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	if err := os.MkdirAll(memDir, 0o755); err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	if err := atomicfile.MkdirAllInside(memDir, filepath.Dir(rel), 0o755); err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	f, err := atomicfile.OpenFileInside(memDir, rel, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return "", fmt.Errorf("append log entry: %w", err)
	}
	defer f.Close()
	prefix, size, err := appendPrefix(f, now)
	if err != nil {
		return "", fmt.Errorf("append to %s: %w", path, err)
	}
	if err := appendWhole(f, size, []byte(prefix+Format(e))); err != nil {
		return "", fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("append to %s: close: %w", path, err)
	}
	if size == 0 {
		// The file, and maybe its month and year directories, are new:
		// make their names durable too.
		for d, i := filepath.Dir(path), 0; i < 3; d, i = filepath.Dir(d), i+1 {
			if err := atomicfile.SyncDir(d); err != nil {
				return "", fmt.Errorf("append log entry: %w", err)
			}
		}
	}
	count(memDir)
	return path, nil
}

// writeEntry is the one write of an entry; tests replace it to fail the
// way a full disk does.
var writeEntry = func(f *os.File, b []byte) (int, error) { return f.Write(b) }

// appendWhole appends b to f, whose size was size, and syncs it. On any
// failure it truncates f back to size and checks that it worked, so the
// entry is either all there or not there at all.
func appendWhole(f *os.File, size int64, b []byte) error {
	_, err := writeEntry(f, b)
	if err == nil {
		if err = f.Sync(); err != nil {
			err = fmt.Errorf("sync: %w", err)
		}
	}
	if err == nil {
		return nil
	}
	if terr := f.Truncate(size); terr != nil {
		return fmt.Errorf("%w; the entry may be left in part: truncate back: %v", err, terr)
	}
	if fi, serr := f.Stat(); serr != nil || fi.Size() != size {
		return fmt.Errorf("%w; the entry may be left in part: the log did not return to %d bytes", err, size)
	}
	_ = f.Sync()
	return err
}

// appendPrefix returns what must precede the entry in f (the heading for
// an empty file, a newline after an unterminated line) and f's size.
func appendPrefix(f *os.File, now time.Time) (prefix string, size int64, err error) {
	fi, err := f.Stat()
	if err != nil {
		return "", 0, err
	}
	if fi.Size() == 0 {
		return "# " + now.Format(DateLayout) + "\n\n", 0, nil
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil && err != io.EOF {
		return "", 0, err
	}
	if last[0] != '\n' {
		return "\n", fi.Size(), nil
	}
	return "", fi.Size(), nil
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
