package dailylog

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestCountSurvivesKills: processes append without a lock and are
// SIGKILLed mid-stream. The count never exceeds the entries in the log,
// and a kill leaves at most one entry of its process uncounted (killed
// between the entry and its byte).
func TestCountSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".memdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The log exists with its heading: appends without the lock would
	// race to write it.
	if err := os.MkdirAll(filepath.Dir(Path(dir, testNow)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(Path(dir, testNow), []byte("# 2026-11-22\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const procs, before = 3, 60
	var cmds []*exec.Cmd
	lines := make(chan struct{})
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppend$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperDirEnv+"="+dir, "DAILYLOG_HELPER_PROC="+strconv.Itoa(p), "DAILYLOG_HELPER_FOREVER=1")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- struct{}{}
			}
		}()
	}
	for range before {
		<-lines // entries are being appended by the helpers
	}
	for _, cmd := range cmds {
		_ = cmd.Process.Signal(syscall.SIGKILL)
	}
	go func() {
		for range lines {
		}
	}()
	for _, cmd := range cmds {
		_ = cmd.Wait()
	}
	entries, _, err := Read(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	n, ok, err := Appended(dir)
	if err != nil || !ok {
		t.Fatalf("Appended = %d, %v, %v", n, ok, err)
	}
	t.Logf("%d entries, count %d", len(entries), n)
	if got := int64(len(entries)); n > got || n < got-procs {
		t.Errorf("count %d for %d entries, want between %d and %d", n, got, got-procs, got)
	}
	if len(entries) < before {
		t.Errorf("%d entries, want at least %d", len(entries), before)
	}
}

// TestAppendedMissing: no count yet is not an error.
func TestAppendedMissing(t *testing.T) {
	if n, ok, err := Appended(t.TempDir()); n != 0 || ok || err != nil {
		t.Errorf("Appended = %d, %v, %v; want 0, false, nil", n, ok, err)
	}
}

// TestChangedSince reads log names and times only.
func TestChangedSince(t *testing.T) {
	dir := t.TempDir()
	if changed, err := ChangedSince(dir, time.Time{}); err != nil || changed {
		t.Fatalf("no logs: ChangedSince = %v, %v; want false", changed, err)
	}
	if _, err := Append(dir, testNow, Entry{Title: "Fact", Text: "Port 1."}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(Path(dir, testNow))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		since time.Time
		want  bool
	}{
		{time.Time{}, true},
		{fi.ModTime().Add(-time.Second), true},
		{fi.ModTime(), false},
	} {
		if got, err := ChangedSince(dir, tc.since); err != nil || got != tc.want {
			t.Errorf("ChangedSince(%s) = %v, %v; want %v", tc.since, got, err, tc.want)
		}
	}
}
