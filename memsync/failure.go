package memsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/untrusted"
)

// FailureFile holds the last personal sync's failure: its time and its
// one-line reason. A sync that succeeds, and a change of remote, remove
// it. Syncs a session start runs in the background have no one watching
// their stderr; this file is how doctor hears of a remote that keeps
// failing.
const FailureFile = "sync/last-failure"

// Failure is a sync that failed: when, and why.
type Failure struct {
	At     time.Time
	Reason string
}

// LastFailure returns the last personal sync's failure; ok is false when
// the last sync succeeded, or none ran since the remote was set.
func LastFailure(home string) (f Failure, ok bool) {
	data, err := untrusted.ReadFile(filepath.Join(home, filepath.FromSlash(FailureFile)), "", untrusted.MaxGit)
	if err != nil {
		return Failure{}, false
	}
	at, reason, _ := strings.Cut(strings.TrimSpace(string(data)), "\t")
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return Failure{At: time.Time{}, Reason: strings.TrimSpace(string(data))}, true
	}
	return Failure{At: t, Reason: reason}, true
}

// recordFailure notes that a sync failed with err at now; a failure to
// note it is not worth a second error.
func recordFailure(home string, now time.Time, err error) {
	reason := strings.Join(strings.Fields(err.Error()), " ")
	if len(reason) > 500 {
		reason = reason[:500] + "…"
	}
	if os.MkdirAll(filepath.Join(home, Folder), 0o700) != nil {
		return
	}
	_ = atomicfile.WriteFile(filepath.Join(home, filepath.FromSlash(FailureFile)),
		[]byte(fmt.Sprintf("%s\t%s\n", now.UTC().Format(time.RFC3339), reason)), 0o600)
}

// clearFailure forgets the last failure.
func clearFailure(home string) error {
	err := os.Remove(filepath.Join(home, filepath.FromSlash(FailureFile)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record the last sync: %w", err)
	}
	return nil
}
