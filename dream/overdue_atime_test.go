//go:build linux

package dream

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/dailylog"
)

// TestOverdueReadsNoLog: a session start must not grow with history, so
// the overdue check reads no log. Reading a file whose access time is
// older than its modification time moves the access time (relatime,
// strictatime), so the logs' access times tell whether anyone read them.
func TestOverdueReadsNoLog(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stamp bool // the last dream's stamp is there (else the logs' times are read)
	}{
		{"counted", true},
		{"no stamp", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newLogDir(t)
			now := time.Now()
			for i := range OverdueEntries {
				appendEntry(t, d, now, "project", fmt.Sprintf("Fact %d", i), fmt.Sprintf("Port %d.", i))
			}
			if tc.stamp {
				writeSeen(t, d.Path, "0")
			}
			lock := filepath.Join(d.Path, LockFile)
			if err := os.WriteFile(lock, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			at := now.Add(-time.Hour)
			if err := os.Chtimes(lock, at, at); err != nil {
				t.Fatal(err)
			}
			log := dailylog.Path(d.Path, now)
			past := time.Unix(1e9, 0)
			if err := os.Chtimes(log, past, now); err != nil {
				t.Fatal(err)
			}
			if due, why, err := Overdue(d, now); err != nil || !due {
				t.Errorf("Overdue = %v (%q), %v; want true", due, why, err)
			}
			if got := accessTime(t, log); !got.Equal(past) {
				t.Errorf("Overdue read the log (its access time moved to %s)", got)
			}
			// The file system keeps access times: a read moves them.
			if _, err := os.ReadFile(log); err != nil {
				t.Fatal(err)
			}
			if accessTime(t, log).Equal(past) {
				t.Skip("this file system does not keep access times")
			}
		})
	}
}

func accessTime(t *testing.T, path string) time.Time {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return time.Unix(st.Atim.Sec, st.Atim.Nsec)
}
