package dream

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseSchedule(t *testing.T) {
	tests := []struct {
		spec string
		ok   bool
	}{
		{"0 3 * * *", true},
		{"@daily", true},
		{"@every 1h", true},
		{"CRON_TZ=Europe/Paris 0 3 * * *", true},
		{"TZ=0", false},        // the cron parser panics on this one
		{"CRON_TZ=UTC", false}, // and on this one
		{"0 0 30 2 *", false},  // parses, never fires
		{"61 * * * *", false},
		{"* * * *", false},
		{"", false},
		{"@sometimes", false},
	}
	for _, tc := range tests {
		_, err := ParseSchedule(tc.spec)
		if (err == nil) != tc.ok {
			t.Errorf("ParseSchedule(%q) error = %v, want ok %v", tc.spec, err, tc.ok)
		}
		var se *ScheduleError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("ParseSchedule(%q) error %T, want *ScheduleError", tc.spec, err)
		}
	}
}

func TestNextRuns(t *testing.T) {
	from := time.Date(2026, 11, 22, 10, 4, 5, 0, time.UTC)
	got, err := NextRuns("0 3 * * *", from, 5)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		want := time.Date(2026, 11, 23+i, 3, 0, 0, 0, time.UTC)
		if !g.Equal(want) {
			t.Errorf("run %d = %s, want %s", i, g, want)
		}
	}
	if len(got) != 5 {
		t.Errorf("got %d runs, want 5", len(got))
	}
}

// FuzzParseSchedule checks the parser never panics and that every spec it
// accepts fires.
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{"0 3 * * *", "TZ=0", "CRON_TZ=UTC", "@every 1s", "0 0 30 2 *", "*/5 1-3 * * MON"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		sched, err := ParseSchedule(spec)
		if err != nil {
			return
		}
		if sched.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
			t.Fatalf("accepted %q that never fires", spec)
		}
	})
}

func TestRoundSkipsWhileRunning(t *testing.T) {
	d := newLogDir(t)
	appendEntry(t, d, day1, "project", "Deploys", "Deploys need the VPN.")
	started, release := make(chan struct{}), make(chan struct{})
	var lines []string
	var mu sync.Mutex
	s := &Scheduler{
		Spec:    "@daily",
		Targets: func() ([]Target, error) { return []Target{{Dir: d}}, nil },
		Dream: func(ctx context.Context, o Options) (*Report, error) {
			close(started)
			<-release
			return Run(ctx, o)
		},
		Log: func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() },
	}
	done := make(chan struct{})
	go func() { s.Round(context.Background()); close(done) }()
	<-started
	s.Round(context.Background()) // the first round still runs
	close(release)
	<-done
	mu.Lock()
	defer mu.Unlock()
	want := []string{"skipped: the previous run is still going", d.Path + ": dream: 1 new, 0 updated, 0 archived, 1 entry read, 0 duplicates dropped"}
	if len(lines) != 2 || lines[0] != want[0] || !strings.HasPrefix(lines[1], want[1]) {
		t.Errorf("log lines = %q, want %q (then the time taken)", lines, want)
	}
}
