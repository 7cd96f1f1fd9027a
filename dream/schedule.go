package dream

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/memdir/memdir/memdir"
)

// DefaultSchedule is when the daemon dreams unless told otherwise: 03:00
// every night.
const DefaultSchedule = "0 3 * * *"

// ScheduleError is a cron spec that cannot be used.
type ScheduleError struct {
	Spec string
	Msg  string
}

func (e *ScheduleError) Error() string {
	return fmt.Sprintf("schedule %q: %s; use 5 cron fields like \"0 3 * * *\" or a descriptor like @daily, @hourly or \"@every 6h\"", e.Spec, e.Msg)
}

// ParseSchedule parses a cron spec (5 fields, or a descriptor such as
// @daily or "@every 1h", optionally after CRON_TZ=Zone) and checks that it
// fires at all. The cron parser panics on some inputs ("TZ=0"); that
// becomes an error too.
func ParseSchedule(spec string) (sched cron.Schedule, err error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, &ScheduleError{Spec: spec, Msg: "empty"}
	}
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, &ScheduleError{Spec: spec, Msg: fmt.Sprint("not a schedule (", r, ")")}
		}
	}()
	if every, ok := strings.CutPrefix(spec, "@every "); ok {
		if d, err := time.ParseDuration(strings.TrimSpace(every)); err == nil && d <= 0 {
			return nil, &ScheduleError{Spec: spec, Msg: "an interval must be positive"}
		}
	}
	sched, err = cron.ParseStandard(spec)
	if err != nil {
		return nil, &ScheduleError{Spec: spec, Msg: err.Error()}
	}
	if sched.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
		return nil, &ScheduleError{Spec: spec, Msg: "it never fires (no such date)"}
	}
	return sched, nil
}

// NextRuns returns the next n times spec fires after from.
func NextRuns(spec string, from time.Time, n int) ([]time.Time, error) {
	sched, err := ParseSchedule(spec)
	if err != nil {
		return nil, err
	}
	var out []time.Time
	for t := from; len(out) < n; {
		t = sched.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t)
	}
	return out, nil
}

// Target is one memory directory the scheduler dreams.
type Target struct {
	Dir       *memdir.Dir
	Distiller string
	// DistillerTimeout bounds the external distiller; 0 is the default.
	DistillerTimeout time.Duration
	MinHours         float64
}

// Scheduler runs dreams on a cron schedule until its context ends.
type Scheduler struct {
	Spec string
	// Targets lists the directories to dream, asked afresh at every run
	// so that new projects join.
	Targets func() ([]Target, error)
	// Dream runs one dream; Run when nil.
	Dream func(ctx context.Context, opts Options) (*Report, error)
	// Log receives one line per directory per run.
	Log func(line string)
	// Wall is the real clock; time.Now when nil.
	Wall func() time.Time

	mu      sync.Mutex
	running bool
}

// Start checks the spec and runs the schedule until ctx is done, then
// waits for a running round to finish: a dream is never cut short.
func (s *Scheduler) Start(ctx context.Context) error {
	sched, err := ParseSchedule(s.Spec)
	if err != nil {
		return err
	}
	c := cron.New(cron.WithChain(cron.Recover(cronLogger{s})))
	c.Schedule(sched, cron.FuncJob(func() { s.Round(context.WithoutCancel(ctx)) }))
	c.Start()
	s.log("daemon: dreaming on %q, next at %s", s.Spec, sched.Next(s.wall()).Format(time.RFC3339))
	<-ctx.Done()
	s.log("daemon: stopping, waiting for a running dream to finish")
	<-c.Stop().Done()
	s.log("daemon: stopped")
	return nil
}

// Round dreams every target once, skipping a round while the last one
// still runs, and each directory that is being dreamed by another process,
// was dreamed less than its MinHours ago, or has nothing new since its
// last dream. It logs one line per directory.
func (s *Scheduler) Round(ctx context.Context) {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		s.log("skipped: the previous run is still going")
		return
	}
	s.running = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}()
	targets, err := s.Targets()
	if err != nil {
		s.log("error: %v", err)
		return
	}
	for _, t := range targets {
		s.one(ctx, t)
	}
}

func (s *Scheduler) one(ctx context.Context, t Target) {
	dir := t.Dir.Path
	if why := s.skip(t); why != "" {
		s.log("%s: skipped: %s", dir, why)
		return
	}
	dream := s.Dream
	if dream == nil {
		dream = Run
	}
	start := s.wall()
	rep, err := dream(ctx, Options{Dir: t.Dir, Distiller: t.Distiller, DistillerTimeout: t.DistillerTimeout, Wall: s.Wall})
	took := s.wall().Sub(start).Round(time.Millisecond)
	switch {
	case errors.Is(err, ErrHeld):
		s.log("%s: skipped: %v", dir, err)
	case err != nil:
		s.log("%s: dream failed after %s: %v", dir, took, err)
	default:
		s.log("%s: %s, %s read, %s dropped (%s)", dir, rep.Message(), memdir.Count(rep.EntriesRead, "entry", "entries"), memdir.Count(len(rep.Duplicates), "duplicate"), took)
	}
}

// skip says why a target should not dream now, or "".
func (s *Scheduler) skip(t Target) string {
	last, err := LastDream(t.Dir.Path)
	if err != nil {
		return err.Error()
	}
	if err := checkHeld(t.Dir.Path, s.wall()); err != nil {
		return err.Error()
	}
	if !last.IsZero() && t.MinHours > 0 && s.wall().Sub(last) < time.Duration(t.MinHours*float64(time.Hour)) {
		return fmt.Sprintf("dreamed %s ago, less than %g hours", s.wall().Sub(last).Round(time.Minute), t.MinHours)
	}
	due, err := Due(t.Dir, last)
	if err != nil {
		return err.Error()
	}
	if !due {
		return "nothing new since the last dream"
	}
	return ""
}

func (s *Scheduler) wall() time.Time {
	if s.Wall != nil {
		return s.Wall()
	}
	return time.Now()
}

func (s *Scheduler) log(format string, a ...any) {
	if s.Log != nil {
		s.Log(fmt.Sprintf(format, a...))
	}
}

// Due reports whether a memory directory has anything for a dream since
// last (the previous dream's time; zero for never): a log entry not yet
// distilled, a journal left by a killed dream, a topic file or MEMORY.md
// changed since, or a project topic that has expired.
func Due(d *memdir.Dir, last time.Time) (bool, error) {
	if last.IsZero() {
		return true, nil
	}
	if exists(filepath.Join(d.Path, filepath.FromSlash(journalPath))) {
		return true, nil
	}
	s, err := gather(d)
	if err != nil {
		return false, err
	}
	if len(s.entries) > 0 {
		return true, nil
	}
	now := d.Clock()
	for _, t := range s.topics {
		if t.Type == "project" && t.Expired(now()) {
			return true, nil
		}
	}
	for _, f := range append(append([]string{memdir.IndexFile}, s.broken...), fileNames(s)...) {
		if fi, err := os.Stat(filepath.Join(d.Path, f)); err == nil && fi.ModTime().After(last) {
			return true, nil
		}
	}
	return false, nil
}

func fileNames(s *snapshot) []string {
	out := make([]string, 0, len(s.topics))
	for _, t := range s.topics {
		out = append(out, t.File)
	}
	return out
}

// cronLogger reports a panic cron recovered from as a log line.
type cronLogger struct{ s *Scheduler }

func (l cronLogger) Info(string, ...any) {}

func (l cronLogger) Error(err error, msg string, _ ...any) { l.s.log("error: %s: %v", msg, err) }
