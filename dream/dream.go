// Package dream is memdir's distiller: it turns the daily-log entries not
// yet distilled, and the current topic files, into consolidated topic
// files and a MEMORY.md fitted under its load caps, writes a report, and
// schedules itself with cron.
//
// # One run
//
// Run takes the consolidation lock (.consolidate-lock: the dreaming
// process inside, its mtime the time of the last finished dream; a lock
// whose holder is gone or that is older than an hour is taken over; see
// LockFile) and the
// store's sidecar lock, replays the journal a killed dream may have left,
// then gathers the topics, the index and the pending log entries, and
// hands them to a distiller: the built-in one (deterministic rules, see
// builtin.go, classify.go and supersede.go) or an external command that
// speaks the JSON protocol of external.go, whose answer is validated
// before anything is written. Expired project topics move to archive/;
// MEMORY.md is refitted under 70% of both caps; a report goes to
// .memdir/dreams/<time>.md.
//
// # Exactly once, whatever kills it
//
// Log entries are identified by (log file, content hash, occurrence of
// that hash in the file), and .memdir/dream/state.json records, per log
// file, how many occurrences of each hash were distilled. A log appended
// to since the last dream has new entries past the recorded counts; an
// edited entry has a new hash and is distilled as a new fact.
//
// Every change a dream makes is first written, with its final bytes, to a
// journal (.memdir/dream/journal.json), atomically, before the first file
// is touched. The journal holds the topic writes, the archive moves, the
// index and overflow files, the report and the new state, in that order;
// the state comes last, so it records the entries only after the files
// that hold them. Then the changes are applied and the journal removed.
// Each step is idempotent (a write is skipped when the file already holds
// its bytes, a move when its source is gone, a removal when the file is
// gone), so a dream killed at any point is finished by the next one,
// which replays the journal before it looks at anything else:
//
//   - killed before the journal exists: nothing changed; the next dream
//     starts over from the same logs and state;
//   - killed while applying it: the next dream replays it, so every
//     entry lands once, and the state it records matches the files.
//
// Every file is written through atomicfile (temp file, rename), so a
// killed dream never leaves a file torn; temp files a killed writer left
// are removed. The topics are written as one atomicfile.Batch, without
// an fsync each, and synced together (one syncfs on Linux) before the
// archive moves, the index, the report and the state, each fsynced, so
// the state never marks an entry distilled before the topic holding it
// is durable. A power cut before that sync may leave the topics missing,
// empty or cut short; the journal, synced before the first change,
// outlives it, and its replay rewrites them (a file holding the start of
// what the journal writes is taken as unfinished). A second dream with
// nothing new writes no file.
package dream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memdir"
)

// Options configure one dream.
type Options struct {
	Dir *memdir.Dir
	// Now stamps topics and reports; Dir.Now, else time.Now, when nil.
	Now func() time.Time
	// Wall is the real clock, for the consolidation lock's mtime and age
	// (other tools read it); time.Now when nil.
	Wall func() time.Time
	// DryRun computes the report and a diff and writes nothing.
	DryRun bool
	// Distiller is an external distiller's command line; "" is the
	// built-in distiller.
	Distiller string
	// DistillerTimeout bounds the external distiller; 10 minutes when 0.
	DistillerTimeout time.Duration
	// Stderr receives the external distiller's standard error.
	Stderr io.Writer
	// Progress, when set, hears how many of the entries read the built-in
	// distiller has matched so far (a terminal's progress line).
	Progress func(done, total int)
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return o.Dir.Clock()()
}

func (o *Options) wall() time.Time {
	if o.Wall != nil {
		return o.Wall()
	}
	return time.Now()
}

// Run dreams once. It returns a *HeldError (matching ErrHeld) at once when
// another process is dreaming the directory, and an *AnswerError when an
// external distiller's answer is refused; in both cases nothing changed.
func Run(ctx context.Context, opts Options) (*Report, error) {
	d := opts.Dir
	if !d.Exists() {
		return nil, &memdir.InputError{Msg: fmt.Sprintf("no memory yet at %s: `memdir init` creates it", d.Path)}
	}
	if !opts.DryRun {
		if err := checkHeld(d.Path, opts.wall()); err != nil {
			return nil, err // fail fast, before waiting for the sidecar lock
		}
	}
	if opts.DryRun {
		// A dry run writes nothing, not even the lock's holder note; it
		// reads a directory that a concurrent writer may be changing,
		// which for a preview is fine.
		return run(ctx, &opts, nil)
	}
	lk, err := d.Lock("dream")
	if err != nil {
		return nil, err
	}
	defer func() { _ = lk.Release() }()
	cl, err := acquireConsolidate(d.Path, opts.wall())
	if err != nil {
		return nil, err
	}
	rep, err := run(ctx, &opts, &lk)
	if rerr := cl.release(err == nil, opts.wall()); err == nil && rerr != nil {
		err = rerr
	}
	return rep, err
}

// maxAttempts bounds how often one dream starts over because someone
// edited a file it was about to replace.
const maxAttempts = 4

// run is one dream under the locks. lk is the held sidecar lock, released
// while an external distiller works; nil for a dry run.
//
// People and agents edit topic files and MEMORY.md without memdir's lock,
// so every file the dream replaces is guarded by what it read: an edit
// made meanwhile makes the write refuse (see atomicfile's Stamp), and the
// dream starts over from the new content. What it had already written
// holds facts it merges again as exact duplicates, and the state, written
// last, records nothing of the refused attempt. A file edited under two
// attempts is left for the next dream, with the entries bound for it.
func run(ctx context.Context, opts *Options, lk **memdir.Lock) (*Report, error) {
	d := opts.Dir
	app := &applier{dir: d.Path, crash: newCrashHook()}
	var notes []string
	if !opts.DryRun {
		cleanTemps(d.Path, opts.wall())
		j, err := readJournal(d.Path)
		if err != nil {
			return nil, err
		}
		if j != nil {
			note, err := finishCrashed(d, app, j)
			if err != nil {
				return nil, err
			}
			notes = append(notes, note...)
		}
	}
	a := &attempt{opts: opts, lk: lk, app: app, busy: map[string]bool{}}
	edits := map[string]int{}
	for n := 1; ; n++ {
		a.notes = notes
		rep, err := a.run(ctx)
		var ce *changedError
		if !errors.As(err, &ce) {
			return rep, err
		}
		if opts.Distiller != "" || n == maxAttempts {
			return nil, fmt.Errorf("%s was edited while dreaming and was not overwritten; the entries not yet distilled wait for the next dream: run it again", ce.File)
		}
		if edits[ce.File]++; edits[ce.File] >= 2 {
			a.busy[ce.File] = true
		}
		notes = append(notes, ce.File+" was edited while dreaming: dreamed again from its new content")
	}
}

// attempt is one pass of a dream: gather, distill, plan, apply. Paths
// holds what earlier passes wrote before a refused write stopped them,
// to commit with this one.
type attempt struct {
	opts  *Options
	lk    **memdir.Lock
	app   *applier
	busy  map[string]bool
	notes []string
	paths []string
}

func (a *attempt) run(ctx context.Context) (*Report, error) {
	opts, d := a.opts, a.opts.Dir
	s, err := gather(d)
	if err != nil {
		return nil, err
	}
	now := opts.now()
	rep := newReport(d.Path, now, opts)
	rep.EntriesRead = len(s.entries)
	rep.Problems = append(rep.Problems, a.notes...)
	rep.Problems = append(rep.Problems, s.problems...)
	p := &planner{d: d, s: s, now: now, rep: rep, archive: map[string]bool{}, busy: a.busy}
	if opts.Distiller == "" || len(s.entries) == 0 {
		// With no entries there is nothing to ask an external distiller:
		// the run only archives and refits.
		b := newBuiltin(s, now, rep)
		b.busy = a.busy
		for f := range a.busy {
			b.files[f] = true // a new topic takes another name
		}
		for i, e := range s.entries {
			b.add(e)
			if opts.Progress != nil {
				opts.Progress(i+1, len(s.entries))
			}
		}
		err = p.plan(b.result(), b.distilled(s.entries))
	} else {
		err = distillExternal(ctx, opts, s, p, a.lk)
	}
	if err != nil {
		return nil, err
	}
	if opts.DryRun {
		rep.File = ""
		rep.Diff = dryDiff(d.Path, p.j)
		return rep, nil
	}
	return rep, a.apply(p.j)
}

// apply writes the journal, makes its changes, commits them and removes
// it. A refused write (*changedError) drops the journal: replaying it
// would overwrite the edit.
func (a *attempt) apply(j *journal) error {
	d := a.opts.Dir
	if len(j.Writes)+len(j.Moves)+len(j.Removes)+len(j.Last) == 0 {
		return a.commit(&journal{Message: "dream: files written before an edit made the dream start over"})
	}
	if err := writeJournal(d.Path, j); err != nil {
		return err
	}
	a.app.step()
	if err := a.app.apply(j); err != nil {
		var ce *changedError
		if errors.As(err, &ce) {
			a.paths = append(a.paths, a.app.takeWritten()...)
			if rerr := a.app.remove(journalPath, nil); rerr != nil {
				return rerr
			}
		}
		return err
	}
	// Commit before the journal goes: killed in between, the next dream
	// finds the journal, whose writes are all done, and commits again.
	if err := a.commit(j); err != nil {
		return err
	}
	return a.app.remove(journalPath, nil)
}

// commit reports the change to the directory's hook (git), with what
// refused earlier attempts wrote.
func (a *attempt) commit(j *journal) error {
	paths := append(append([]string(nil), j.Paths...), a.paths...)
	if len(paths) == 0 {
		return nil
	}
	a.paths = nil
	return a.opts.Dir.Changed(memdir.Change{Paths: paths, Message: j.Message})
}

// finishCrashed completes the dream a crash interrupted, unless someone
// changed one of its files since: then finishing it would overwrite that
// change, so the leftover journal is dropped instead. Either way nothing
// is lost: the entries its state did not record are distilled again by
// this dream, and merging what a topic already says adds nothing.
func finishCrashed(d *memdir.Dir, app *applier, j *journal) ([]string, error) {
	if f := conflict(d.Path, j); f != "" {
		note := fmt.Sprintf("a dream interrupted by a crash was not finished: %s changed since; its entries are distilled again", f)
		return []string{note}, app.remove(journalPath, nil)
	}
	app.replay = true
	err := app.apply(j)
	app.replay = false
	if err != nil {
		return nil, fmt.Errorf("finish the dream a crash interrupted: %w", err)
	}
	if err := d.Changed(memdir.Change{Paths: j.Paths, Message: j.Message + " (finished after a crash)"}); err != nil {
		return nil, err
	}
	return nil, app.remove(journalPath, nil)
}

func newReport(dir string, now time.Time, opts *Options) *Report {
	name := "built-in"
	if opts.Distiller != "" {
		name = opts.Distiller
	}
	return &Report{
		Time: now, Dir: dir, Distiller: name, DryRun: opts.DryRun,
		Created: []string{}, Updated: []string{}, Archived: []string{},
		Duplicates: []Duplicate{}, Replaced: []Replacement{}, Dates: []DateChange{},
		Typed: []Typed{}, Skipped: []Skipped{}, NotIndexed: []string{}, Changed: []string{},
	}
}

// dryDiff renders what the journal would change as a unified diff; state
// files are left out.
func dryDiff(dir string, j *journal) string {
	var out []byte
	read := func(rel string) []byte {
		data, err := atomicfile.ReadInside(dir, filepath.FromSlash(rel))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return data
	}
	for _, op := range append(append([]fileOp(nil), j.Writes...), j.Last...) {
		if strings.HasPrefix(op.Path, stateDir+"/") || filepath.Dir(op.Path) == reportsDir {
			continue
		}
		out = append(out, diff.Diff("a/"+op.Path, read(op.Path), "b/"+op.Path, []byte(op.Data))...)
	}
	for _, m := range j.Moves {
		out = append(out, fmt.Sprintf("rename %s => %s\n", m.From, m.To)...)
	}
	for _, r := range j.Removes {
		out = append(out, diff.Diff("a/"+r, read(r), "/dev/null", nil)...)
	}
	return string(out)
}
