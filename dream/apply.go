package dream

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
)

// applier makes a journal's changes, telling the crash tests' hook (in
// binaries built with -tags crashtest) of each file operation.
type applier struct {
	dir   string
	crash *crashHook
	// replay is set while finishing a crashed dream's journal, whose
	// writes may be done already; a dream's own journal writes files
	// that hold what it read (each write's guard checks).
	replay bool

	mu      sync.Mutex
	written []string // memory files written since takeWritten
}

// changedError is a write or removal refused because someone edited the
// file since the dream read it.
type changedError struct {
	File string
	Err  error
}

func (e *changedError) Error() string { return e.Err.Error() }
func (e *changedError) Unwrap() error { return e.Err }

// done counts one file operation on paths, recording those that are
// memory files (not dream's own state).
func (a *applier) done(paths ...string) {
	a.mu.Lock()
	for _, rel := range paths {
		if !strings.HasPrefix(rel, memdir.StateDir+"/") {
			a.written = append(a.written, rel)
		}
	}
	a.mu.Unlock()
	a.step()
}

// takeWritten returns the memory files written since the last call.
func (a *applier) takeWritten() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	w := a.written
	a.written = nil
	return w
}

// step counts one file operation for the crash hook.
func (a *applier) step() { a.crash.step() }

func (a *applier) abs(rel string) string { return filepath.Join(a.dir, filepath.FromSlash(rel)) }

// write replaces a file unless it already holds data. A guarded write
// refuses a file that is no longer what the dream read (an error
// wrapping atomicfile.ErrChanged). With a batch, the write is durable
// only once the batch is synced.
func (a *applier) write(op fileOp, b *atomicfile.Batch) error {
	o := atomicfile.Options{Perm: 0o644, Batch: b}
	if op.Guard != nil {
		o.Expect = op.Guard.stamp()
	}
	if a.replay || op.Guard == nil {
		cur, st, err := atomicfile.ReadStamped(a.dir, op.Path)
		if err == nil && string(cur) == op.Data {
			return nil
		}
		if err == nil && a.replay && b != nil && torn(cur, op.Data) {
			// Cut short by a power cut before the batch's sync: the
			// dream's own write, to finish.
			o.Expect = &st
		}
	}
	if d := path.Dir(op.Path); d != "." {
		if err := atomicfile.MkdirAllInside(a.dir, d, 0o755); err != nil {
			return fmt.Errorf("dream: %w", err)
		}
	}
	err := atomicfile.WriteInside(a.dir, op.Path, []byte(op.Data), o)
	switch {
	case errors.Is(err, atomicfile.ErrChanged):
		return &changedError{File: op.Path, Err: err}
	case err != nil:
		return fmt.Errorf("dream: %w", err)
	}
	a.done(op.Path)
	return nil
}

// move renames a file unless its source is already gone.
func (a *applier) move(op moveOp) error {
	from, to := a.abs(op.From), a.abs(op.To)
	if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return fmt.Errorf("dream: %w", err)
	}
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("dream: archive %s: %w", op.From, err)
	}
	for _, d := range []string{filepath.Dir(to), filepath.Dir(from)} {
		if err := atomicfile.SyncDir(d); err != nil {
			return fmt.Errorf("dream: %w", err)
		}
	}
	a.done(op.From, op.To)
	return nil
}

// remove deletes a file unless it is already gone; with a guard, only
// the file the dream read (an error wrapping atomicfile.ErrChanged
// otherwise).
func (a *applier) remove(rel string, g *guard) error {
	if g != nil {
		_, st, err := atomicfile.ReadStamped(a.dir, rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("dream: %w", err)
		}
		if !st.Same(*g.stamp()) {
			return &changedError{File: rel, Err: fmt.Errorf("%s %w", rel, atomicfile.ErrChanged)}
		}
	}
	err := os.Remove(a.abs(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dream: %w", err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(a.abs(rel))); err != nil {
		return fmt.Errorf("dream: %w", err)
	}
	a.done(rel)
	return nil
}

// apply makes every change of j, in order: topics, archive moves,
// removals, then the index, the report and the state. The topics are
// written without an fsync each and made durable together before
// anything else is done, so the state, which marks their entries
// distilled, is never durable before them. The caller removes the
// journal once the change is also committed.
func (a *applier) apply(j *journal) error {
	if err := a.writeTopics(j.Writes); err != nil {
		return err
	}
	for _, op := range j.Moves {
		if err := a.move(op); err != nil {
			return err
		}
	}
	for _, rel := range j.Removes {
		if err := a.remove(rel, j.RemoveGuards[rel]); err != nil {
			return err
		}
	}
	for _, op := range j.Last {
		if err := a.write(op, nil); err != nil {
			return err
		}
	}
	return nil
}

// writeTopics writes the topics as one atomicfile.Batch and syncs it:
// one syncfs instead of two fsyncs a file. What was written is synced
// even when a refused write stops the batch, since the journal that
// covers it is dropped then.
func (a *applier) writeTopics(ops []fileOp) error {
	if len(ops) == 0 {
		return nil
	}
	b, err := atomicfile.NewBatch(a.dir)
	if err != nil {
		return fmt.Errorf("dream: %w", err)
	}
	defer b.Close()
	err = a.writeAll(ops, b)
	if err == nil {
		a.crash.at(crashWritten)
	}
	if serr := b.Sync(); serr != nil && err == nil {
		err = fmt.Errorf("dream: %w", serr)
	}
	if err != nil {
		return err
	}
	a.step()
	a.crash.at(crashSynced)
	return nil
}

// The points of a dream the crash tests can kill it at by name
// (CrashAtEnv, in binaries built with -tags crashtest).
const (
	crashWritten = "written" // every topic written, none synced
	crashSynced  = "synced"  // the topics synced; the index, report and state not written
)

// writers is how many topic files are written at once: their system
// calls overlap, which matters with thousands of topics.
const writers = 8

// writeAll makes the topic writes into b, several at a time; their
// order does not matter, since nothing reads them before the index and
// the state, which come after.
func (a *applier) writeAll(ops []fileOp, b *atomicfile.Batch) error {
	work := make(chan fileOp)
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for range min(writers, len(ops)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for op := range work {
				if err := a.write(op, b); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for _, op := range ops {
		select {
		case work <- op:
		case err = <-errs:
			break feed
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	if err != nil {
		return err
	}
	return <-errs // nil when the channel is empty
}

// cleanTemps removes the temp files a killed writer left in the
// directories a dream writes, by atomicfile's rule: those of a writer
// provably gone, and any older than memdir.TempMaxAge. wall is the real
// clock, which stamps the files.
func cleanTemps(dir string, wall time.Time) {
	atomicfile.CleanTemps(dir, []string{".", memdir.ArchiveDir, stateDir, reportsDir}, memdir.TempMaxAge, wall)
}
