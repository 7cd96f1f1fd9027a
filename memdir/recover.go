package memdir

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/memdir/memdir/atomicfile"
)

// TempMaxAge is the age past which a temp file in the memory directory is
// removed whoever wrote it; younger temps go only when their writer is
// gone. No write keeps its temp open this long.
const TempMaxAge = 10 * time.Minute

// Recovery is what the first process to take the lock after a holder was
// killed repaired.
type Recovery struct {
	Holder  string          // the killed holder's note
	Temps   []string        // temp files removed
	Reindex ReconcileResult // index lines given back (orphan topics) or dropped
}

// lock takes the sidecar lock for a piece of work named what. When the
// last holder was killed while it held it, the leftovers are repaired
// first, under the lock (see recoverFrom), and the repair goes to the
// directory's repair report (WithRepairReport); if that fails, the killed
// holder's note stays for the next process and the error is returned.
func (d *Dir) lock(what string) (*Lock, error) {
	if d.readOnly != "" {
		return nil, fmt.Errorf("%s: %w: %s", d.Path, ErrReadOnly, d.readOnly)
	}
	if err := d.ensure(); err != nil {
		return nil, err
	}
	lk, err := AcquireLock(context.Background(), d.Path, d.LockTimeout(), what)
	if err != nil || lk.left == "" {
		return lk, err
	}
	rec, err := d.recoverFrom(lk.left)
	if err != nil {
		lk.abandon()
		return nil, fmt.Errorf("repair what %s left: %w", strings.TrimSpace(lk.left), err)
	}
	if d.repaired != nil {
		d.repaired(rec)
	}
	return lk, nil
}

// recoverFrom repairs what a killed lock holder left: temp files of
// writers that are gone (or older than TempMaxAge) in the directory, the
// state directory and the archive; and topic files it wrote without their
// index line, which get their line back (a full reconciliation). A killed
// dream is left to the next dream, which finishes or undoes its own
// journal, so only its temps go.
func (d *Dir) recoverFrom(note string) (*Recovery, error) {
	rec := &Recovery{Holder: note}
	// File ages are measured against the real clock, as the file system
	// stamps them, not against d.Now (which tests pin).
	rec.Temps = atomicfile.CleanTemps(d.Path, []string{".", StateDir, ArchiveDir}, TempMaxAge, time.Now())
	if strings.HasPrefix(leftBy(note), "dream") {
		return rec, nil
	}
	res, err := d.reconcileLocked(ReconcileRequest{All: true, What: "repair"})
	rec.Reindex = res
	return rec, err
}
