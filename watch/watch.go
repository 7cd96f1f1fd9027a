// Package watch keeps MEMORY.md true while agents and people edit topic
// files directly: it watches the memory directory with fsnotify and, after
// each burst of changes has gone quiet, reconciles the index with the files
// (memdir.Dir.ReconcileWith), once per burst.
//
// fsnotify is not recursive, so every directory is watched on its own; a new
// directory is walked and the files already in it count as new. Directories
// are watched rather than files, since an atomic save replaces the file a
// watch would follow. Event types are only hints: the files named in a burst
// are re-read. memdir's state (.memdir/), .git, editor swap and backup files
// and temp files are ignored, and so are MEMORY.md and the overflow
// indexes, which is why the watcher never reacts to its own writes. On an
// event overflow, a renamed directory or the memory directory coming back,
// it rescans: new watches and a full reconciliation.
//
// It never writes a topic file. Files it cannot use (invalid frontmatter, a
// secret) are reported on the log stream and in .memdir/watch.log and left
// alone, their index lines as they were. A file that a person wrote with a
// secret in it cannot be un-written, but the secret is shown only redacted,
// never reaches MEMORY.md (a new file is not indexed, an indexed one keeps
// its old line) and is never committed.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/memdir/memdir/memdir"
)

// Defaults of Options.
const (
	// DefaultDebounce is the quiet period that ends a burst.
	DefaultDebounce = 200 * time.Millisecond
	// DefaultMaxDelay bounds the wait under a steady stream of events.
	DefaultMaxDelay = 2 * time.Second
)

// Options configure Run.
type Options struct {
	// Dir is the memory directory to watch; its committer (a git
	// commit, say) is called once per reconciliation that changed anything.
	Dir *memdir.Dir
	// Debounce is how long events must stop before a reconciliation;
	// DefaultDebounce when zero.
	Debounce time.Duration
	// MaxDelay is the longest a reconciliation waits after the first event
	// of a burst that never goes quiet; DefaultMaxDelay when zero.
	MaxDelay time.Duration
	// Log gets one line per reconciliation and one per problem; nil
	// discards them.
	Log io.Writer
	// LogFile is appended the same lines, time-stamped; it defaults to
	// .memdir/watch.log in the memory directory, "-" turns it off.
	LogFile string
	// Now stamps the log file's lines; the directory's clock when nil.
	Now func() time.Time
	// OnReconcile, when set, is called after each reconciliation, from the
	// watcher's goroutine (tests and the daemon wait on it).
	OnReconcile func(Report)
}

// Trigger is why a reconciliation ran.
type Trigger string

// The triggers.
const (
	Start  Trigger = "start"  // the watcher started: a full reconciliation
	Change Trigger = "change" // a burst of events went quiet
	Rescan Trigger = "rescan" // events were lost or a directory moved: a full reconciliation
)

// Report is one completed reconciliation.
type Report struct {
	Trigger Trigger
	// Files are the topic files re-read after a change; nil for a full
	// reconciliation.
	Files []string
	// Touched are the other paths seen changed (in subdirectories).
	Touched []string
	Result  memdir.ReconcileResult
	Err     error
	Took    time.Duration
}

// watcher is Run's state; one goroutine owns it.
type watcher struct {
	opts    Options
	root    string
	parent  string
	fw      *fsnotify.Watcher
	dirs    map[string]bool // watched directories under root
	files   map[string]bool // topic files named by pending events
	touched map[string]bool // other paths named by pending events
	rescan  bool
	first   time.Time // the first pending event
	timer   *time.Timer
	log     *logger
}

// Run watches the memory directory until ctx is done, reconciling the
// index after each burst of changes, and returns nil then. It reconciles
// the whole directory first. It returns an error only when it cannot
// watch at all.
func Run(ctx context.Context, opts Options) error {
	w, err := newWatcher(opts)
	if err != nil {
		return err
	}
	defer w.close()
	if err := w.start(Start); err != nil {
		return err
	}
	return w.loop(ctx)
}

func newWatcher(opts Options) (*watcher, error) {
	if opts.Dir == nil {
		return nil, errors.New("watch: no memory directory")
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = DefaultMaxDelay
	}
	root, err := filepath.Abs(opts.Dir.Path)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", opts.Dir.Path, err)
	}
	// The memory directory may be a symlink: watch where it leads (a walk
	// never enters a link).
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	now := opts.Now
	if now == nil {
		now = opts.Dir.Clock()
	}
	if now == nil {
		now = time.Now
	}
	lg := &logger{w: opts.Log, now: now, path: opts.LogFile}
	switch opts.LogFile {
	case "":
		lg.path = filepath.Join(root, memdir.StateDir, LogName)
	case "-":
		lg.path = ""
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	return &watcher{opts: opts, root: root, parent: filepath.Dir(root), timer: timer, log: lg,
		files: map[string]bool{}, touched: map[string]bool{}}, nil
}

func (w *watcher) close() {
	w.timer.Stop()
	if w.fw != nil {
		w.fw.Close()
	}
}

// loop handles events until ctx is done.
func (w *watcher) loop(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.fw.Events:
			if !ok {
				return errors.New("watch: the event stream closed")
			}
			w.event(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return errors.New("watch: the event stream closed")
			}
			w.fsError(err)
		case <-w.timer.C:
			w.flush()
		}
	}
}

// fsError handles an error from fsnotify: lost events mean a rescan.
func (w *watcher) fsError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.log.printf("events were lost (%v): rescanning", err)
		w.rescan = true
		w.arm()
		return
	}
	w.log.printf("error: %v", err)
}

// arm starts or restarts the quiet-period timer.
func (w *watcher) arm() {
	now := time.Now()
	if w.first.IsZero() {
		w.first = now
	}
	wait := w.opts.Debounce
	if rest := w.first.Add(w.opts.MaxDelay).Sub(now); rest < wait {
		wait = max(rest, 0)
	}
	w.timer.Reset(wait)
}

// flush runs the reconciliation a quiet period calls for.
func (w *watcher) flush() {
	w.first = time.Time{}
	if w.rescan {
		w.rescan = false
		clear(w.files)
		if err := w.start(Rescan); err != nil {
			w.log.printf("rescan: %v", err)
		}
		return
	}
	if len(w.files) == 0 && len(w.touched) == 0 {
		return
	}
	files := slices.Sorted(maps.Keys(w.files))
	touched := slices.Sorted(maps.Keys(w.touched))
	clear(w.files)
	clear(w.touched)
	w.reconcile(Change, memdir.ReconcileRequest{Files: files, Touched: touched, What: "watch"})
}

// reconcile runs one reconciliation, logs it and reports it. A directory
// locked past its timeout keeps the work pending for the next quiet period.
func (w *watcher) reconcile(trigger Trigger, req memdir.ReconcileRequest) {
	start := time.Now()
	res, err := w.opts.Dir.ReconcileWith(req)
	r := Report{Trigger: trigger, Touched: req.Touched, Result: res, Err: err, Took: time.Since(start)}
	if !req.All {
		r.Files = req.Files
	}
	w.logReport(r, req)
	if errors.Is(err, memdir.ErrLocked) {
		for _, f := range req.Files {
			w.files[f] = true
		}
		for _, p := range req.Touched {
			w.touched[p] = true
		}
		w.rescan = w.rescan || req.All
		w.arm()
	}
	if w.opts.OnReconcile != nil {
		w.opts.OnReconcile(r)
	}
}

func (w *watcher) logReport(r Report, req memdir.ReconcileRequest) {
	what := "all topic files"
	if !req.All {
		what = describe(append(slices.Clone(req.Files), req.Touched...))
	}
	took := r.Took.Round(time.Millisecond)
	if r.Err != nil {
		w.log.printf("%s %s: %v (%s)", r.Trigger, what, r.Err, took)
		return
	}
	w.log.printf("%s %s: %s (%s)", r.Trigger, what, r.Result.Summary(), took)
	for _, p := range r.Result.Problems {
		w.log.printf("problem: %s", p)
	}
}

// describe names up to three paths, or counts them.
func describe(paths []string) string {
	if len(paths) > 3 {
		return fmt.Sprintf("%d files", len(paths))
	}
	return strings.Join(paths, ", ")
}
