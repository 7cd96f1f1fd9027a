package watch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/memdir"
)

// The memory directory may itself be a symlink: the watcher watches where
// it leads.
func TestWatchLinkedMemoryDir(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "mem")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	d := memdir.Open(link, memdir.Live)
	if _, err := d.Init(); err != nil {
		t.Fatal(err)
	}
	reports := make(chan Report, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Dir: d, Debounce: debounce, LogFile: "-", OnReconcile: func(r Report) { reports <- r }})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	<-reports // the first, full reconciliation
	if err := os.WriteFile(filepath.Join(real, "user_role.md"), []byte(topicText("Role", "Go engineer", "user")), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case <-reports:
			if data, _ := os.ReadFile(filepath.Join(real, memdir.IndexFile)); strings.Contains(string(data), "(user_role.md)") {
				return
			}
		case <-deadline:
			t.Fatal("a topic written through the linked directory never got its index line")
		}
	}
}
