package memdir

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/memdir/memdir/typesx"
)

// TestLockQueuesGoroutines checks the lock inside one process: waiters
// take turns in order of arrival (one polls the file lock at a time), a
// waiter past its timeout says who holds the lock, a second Release is
// harmless, and many goroutines adding at once lose nothing.
func TestLockQueuesGoroutines(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	held, err := AcquireLock(ctx, dir, time.Second, "test")
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLock(ctx, dir, 50*time.Millisecond, "waiter")
	var te *LockTimeoutError
	if !errors.As(err, &te) || !errors.Is(err, ErrLocked) {
		t.Fatalf("a waiter past its timeout got %v, want a LockTimeoutError", err)
	}
	if err := held.Release(); err != nil {
		t.Fatal(err)
	}
	if err := held.Release(); err != nil {
		t.Logf("second Release: %v", err) // the file lock's own answer; it must not block
	}
	again, err := AcquireLock(ctx, dir, time.Second, "test")
	if err != nil {
		t.Fatalf("the lock was not free after Release: %v", err)
	}
	again.Release()

	d := Open(dir, Live)
	d.lockTimeout = time.Minute
	const n = 24
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			req := AddRequest{Type: typesx.Project, Name: fmt.Sprintf("Parallel %c topic", 'a'+i),
				Text: fmt.Sprintf("Fact %d of a kind no other topic has: %c.", i, 'A'+i), New: true}
			_, errs[i] = d.Add(req)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	topics, err := d.TopicFiles()
	if err != nil || len(topics) != n {
		t.Fatalf("%d topic files (%v), want %d", len(topics), err, n)
	}
	ix, _, err := d.loadIndex()
	if err != nil || len(ix.Entries()) != n {
		t.Fatalf("the index holds %d entries (%v), want %d", len(ix.Entries()), err, n)
	}
}
