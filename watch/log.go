package watch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// LogName is the watcher's log inside the state directory .memdir/.
const LogName = "watch.log"

// maxLogBytes is the size past which the log moves to watch.log.1 and
// starts again, so a long-running watcher never fills the disk.
const maxLogBytes = 1 << 20

// logger writes each line to a stream (stderr, for a person) and appends
// it, time-stamped, to the log file.
type logger struct {
	w    io.Writer
	path string
	now  func() time.Time
}

func (l *logger) printf(format string, a ...any) {
	line := fmt.Sprintf(format, a...)
	if l.w != nil {
		fmt.Fprintf(l.w, "memdir watch: %s\n", line)
	}
	if l.path == "" {
		return
	}
	// A missing memory directory (ErrNotExist) is reported already.
	err := l.append(l.now().UTC().Format(time.RFC3339) + " " + line + "\n")
	if err != nil && !errors.Is(err, fs.ErrNotExist) && l.w != nil {
		fmt.Fprintf(l.w, "memdir watch: log: %v\n", err)
	}
}

// append adds one line to the log file. A log is append-only, so it is
// written in place (O_APPEND) rather than renamed over.
func (l *logger) append(line string) error {
	// Mkdir, not MkdirAll: a log line must never bring back a memory
	// directory that was removed.
	if err := os.Mkdir(filepath.Dir(l.path), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("append %s: %w", l.path, err)
	}
	if fi, err := os.Stat(l.path); err == nil && fi.Size() > maxLogBytes {
		if err := os.Rename(l.path, l.path+".1"); err != nil {
			return fmt.Errorf("rotate %s: %w", l.path, err)
		}
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("append %s: %w", l.path, err)
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return fmt.Errorf("append %s: %w", l.path, err)
	}
	return f.Close()
}
