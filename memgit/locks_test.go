package memgit

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/proc"
)

// recordsOf lists the records of the lock rel (relative to gitDir).
func recordsOf(t *testing.T, gitDir, rel string) []string {
	t.Helper()
	var out []string
	for _, rec := range newLock(gitDir, rel).records() {
		out = append(out, rec.path)
	}
	return out
}

// sameFile reports whether two paths name one file.
func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	fa, errA := os.Lstat(a)
	fb, errB := os.Lstat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// plantRecord writes a record of lock (relative to gitDir) naming id: a
// hard link to the lock file when linked, else a file of its own.
func plantRecord(t *testing.T, gitDir, lock string, id proc.ID, linked bool) string {
	t.Helper()
	rec := filepath.Join(gitDir, recordName(lock)+"@"+procToken(id)+"-1")
	if !linked {
		write(t, rec, "")
		return rec
	}
	if err := os.Link(filepath.Join(gitDir, filepath.FromSlash(lock)), rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestGitLocks plants lock files: one whose record is that very file and
// names a dead process is memdir's and is removed; any other (no record,
// a record that is another file, a live holder) is kept, refuses the
// commit with the command that clears it and is reported by ForeignLocks.
// Records an earlier memdir wrote beside the lock still count.
func TestGitLocks(t *testing.T) {
	requireGit(t)
	for _, tc := range []struct {
		name    string
		lock    string // relative to .git
		record  string // "dead", "dead-other-file", "alive", "legacy-dead", "legacy-alive" or "" (none)
		refused bool   // the commit is refused
		foreign bool   // ForeignLocks lists it
	}{
		{"branch lock of a killed memdir", "refs/heads/main.lock", "dead", false, false},
		{"HEAD.lock of a killed memdir", "HEAD.lock", "dead", false, false},
		{"index.lock of a killed memdir", "index.lock", "dead", false, false},
		{"index.lock of a killed earlier memdir", "index.lock", "legacy-dead", false, false},
		{"git's branch lock", "refs/heads/main.lock", "", true, true},
		{"git's HEAD.lock", "HEAD.lock", "", true, true},
		{"git's index.lock", "index.lock", "", true, true},
		{"git's packed-refs.lock", "packed-refs.lock", "", false, true},
		{"git's lock of another branch", "refs/heads/topic/x.lock", "", false, true},
		{"a record that is another file", "refs/heads/main.lock", "dead-other-file", true, true},
		{"a live memdir's lock", "refs/heads/main.lock", "alive", true, false},
		{"a live earlier memdir's lock", "index.lock", "legacy-alive", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, dir := newOwn(t)
			gitDir := filepath.Join(dir, ".git")
			lock := filepath.Join(gitDir, filepath.FromSlash(tc.lock))
			write(t, lock, "0123456789012345678901234567890123456789\n")
			plantLockRecord(t, gitDir, tc.lock, tc.record)
			write(t, filepath.Join(dir, "user_x.md"), "x\n")
			_, err := r.Commit([]string{"user_x.md"}, "add user_x.md")
			switch {
			case tc.refused && strings.HasSuffix(tc.record, "alive"):
				if !strings.Contains(fmtErr(err), "held by memdir") {
					t.Fatalf("Commit = %v, want a refusal naming memdir", err)
				}
			case tc.refused:
				if want := "(if no git process is running, remove it: rm '" + lock + "')"; !strings.Contains(fmtErr(err), want) {
					t.Fatalf("Commit = %v, want a refusal ending %q", err, want)
				}
			case err != nil:
				t.Fatalf("Commit = %v", err)
			}
			_, err = os.Stat(lock)
			if kept := err == nil; kept != (tc.refused || tc.foreign) {
				t.Errorf("lock kept = %v (%v)", kept, err)
			}
			got := foreign(t, dir)
			if want := []string{tc.lock}; tc.foreign != slices.Equal(got, want) || !tc.foreign && len(got) > 0 {
				t.Errorf("ForeignLocks = %v, foreign %v", got, tc.foreign)
			}
		})
	}
}

// plantLockRecord writes the record kind names for the lock file rel.
func plantLockRecord(t *testing.T, gitDir, rel, kind string) {
	t.Helper()
	lock := newLock(gitDir, rel)
	switch kind {
	case "dead":
		plantRecord(t, gitDir, rel, deadProcess(t), true)
	case "dead-other-file":
		plantRecord(t, gitDir, rel, deadProcess(t), false)
	case "alive":
		plantRecord(t, gitDir, rel, proc.Of(os.Getppid()), true)
	case "legacy-dead", "legacy-alive":
		fi, err := os.Lstat(lock.path())
		if err != nil {
			t.Fatal(err)
		}
		o := lockOwner{proc: proc.Of(os.Getppid()), file: fileIDOf(fi)}
		if kind == "legacy-dead" {
			o.proc = deadProcess(t)
		}
		if o.file == (fileID{}) {
			t.Skip("no inode numbers here: earlier memdir recorded none")
		}
		write(t, lock.legacyRecord(), formatOwner(o))
	}
}

// TestLockHelperProcess is not a test: it is the memdir process
// TestKilledLockTaking kills. In the repository at MEMGIT_LOCK_LOOP it
// takes index.lock, HEAD.lock and the branch's lock in turn, forever,
// each time either writing back what the lock guards and renaming it into
// place or releasing it, and writes one byte to stdout per round.
func TestLockHelperProcess(t *testing.T) {
	dir := os.Getenv("MEMGIT_LOCK_LOOP")
	if dir == "" {
		t.Skip("run by TestKilledLockTaking")
	}
	gitDir := filepath.Join(dir, ".git")
	for round := 0; ; round++ {
		for _, rel := range []string{"index.lock", "HEAD.lock", "refs/heads/main.lock"} {
			if err := cycleLock(gitDir, rel, round%2 == 0); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
		os.Stdout.Write([]byte{'.'})
	}
}

// cycleLock takes the lock rel and commits what it guards unchanged, or
// releases it.
func cycleLock(gitDir, rel string, commit bool) error {
	data, err := os.ReadFile(filepath.Join(gitDir, strings.TrimSuffix(rel, ".lock")))
	if err != nil {
		return err
	}
	l := newLock(gitDir, rel)
	if err := l.lock(); err != nil {
		return err
	}
	if !commit {
		l.release()
		return nil
	}
	if _, err := l.f.Write(data); err != nil {
		l.release()
		return err
	}
	return l.commit()
}

// TestKilledLockTaking kills (SIGKILL) a memdir process that takes and
// drops git's locks in a loop, hundreds of times at random moments, so
// that kills land between every two steps of taking a lock and of
// dropping it: after each kill a commit succeeds, leaves no lock and no
// record, and git finds the repository sound at the end.
func TestKilledLockTaking(t *testing.T) {
	requireGit(t)
	kills := 250
	if testing.Short() {
		kills = 50
	}
	r, dir := newOwn(t)
	gitDir := filepath.Join(dir, ".git")
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	staleLocks, litter := 0, 0
	for i := range kills {
		killLockLoop(t, dir, rng)
		for _, rel := range []string{"index.lock", "HEAD.lock", "refs/heads/main.lock"} {
			if _, err := os.Lstat(filepath.Join(gitDir, rel)); err == nil {
				staleLocks++
			}
			litter += len(recordsOf(t, gitDir, rel))
		}
		write(t, filepath.Join(dir, "user_x.md"), fmt.Sprintf("round %d\n", i))
		res, err := r.Commit([]string{"user_x.md"}, fmt.Sprintf("round %d", i))
		if err != nil || !res.Committed() {
			t.Fatalf("kill %d: Commit = %+v, %v", i, res, err)
		}
		for _, rel := range []string{"index.lock", "HEAD.lock", "refs/heads/main.lock"} {
			if _, err := os.Lstat(filepath.Join(gitDir, rel)); err == nil {
				t.Fatalf("kill %d: %s left after a commit", i, rel)
			}
			if recs := recordsOf(t, gitDir, rel); len(recs) != 0 {
				t.Fatalf("kill %d: records %v left after a commit", i, recs)
			}
		}
	}
	t.Logf("%d kills: %d held locks left, %d records (held or litter) seen", kills, staleLocks, litter)
	if staleLocks == 0 {
		t.Errorf("no kill left a held lock: the kills never landed while a lock was held")
	}
	if got := runGit(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q", got)
	}
	if got := runGit(t, dir, "log", "-1", "--format=%s"); got != fmt.Sprintf("round %d\n", kills-1) {
		t.Errorf("git log = %q", got)
	}
	runGit(t, dir, "fsck", "--full", "--strict")
}

// killLockLoop starts TestLockHelperProcess on dir and kills it with
// SIGKILL at a random moment of a round: it times one round between two
// of the process's bytes, then waits a random part of that. The wait only
// spreads the kills over the round; nothing relies on where one lands.
func killLockLoop(t *testing.T, dir string, rng *rand.Rand) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), "MEMGIT_LOCK_LOOP="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	_, err = r.ReadByte()
	start := time.Now()
	if err == nil {
		_, err = r.ReadByte()
	}
	if err == nil {
		time.Sleep(time.Duration(rng.Int64N(int64(time.Since(start)) + 1)))
	}
	kill9(t, cmd)
	if err != nil {
		t.Fatalf("the locking process stopped: %v\n%s", err, stderr.String())
	}
}

// FuzzRecordName: the holder a record's name gives is the one it was
// written for, and no name makes the reader panic.
func FuzzRecordName(f *testing.F) {
	f.Add("42-1234-987654")
	f.Add("42--1")
	f.Add("0-1-2")
	f.Add("42-12 34-1")
	f.Add("-1-")
	f.Fuzz(func(t *testing.T, tail string) {
		id, ok := parseRecord(tail)
		if !ok {
			return
		}
		if id.PID <= 0 {
			t.Fatalf("parseRecord(%q) = %+v: no process", tail, id)
		}
		if again, ok := parseRecord(procToken(id) + "-1"); !ok || again != id {
			t.Fatalf("record of %+v reads back as %+v, %v", id, again, ok)
		}
	})
}
