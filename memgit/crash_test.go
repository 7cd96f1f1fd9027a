package memgit

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/proc"
)

// TestHelperProcess is not a test: it is the memdir process the crash
// tests start and kill. It commits user_x.md in MEMGIT_HELPER_DIR and
// stops forever at the point MEMGIT_HELPER_STOP names, after saying so
// on stdout.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv("MEMGIT_HELPER_DIR")
	if dir == "" {
		t.Skip("run by the crash tests")
	}
	stop := os.Getenv("MEMGIT_HELPER_STOP")
	testHook = func(point string) {
		if point == stop {
			fmt.Println("stopped at", point)
			select {}
		}
	}
	r, err := Open(dir, testOpts)
	if err == nil {
		_, err = r.Commit([]string{"user_x.md"}, "add user_x.md")
	}
	fmt.Println("done:", err)
	os.Exit(0)
}

// startStopped starts a memdir (the helper) committing in dir and
// returns once it has stopped at point, holding what it holds there.
func startStopped(t *testing.T, dir, point string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "MEMGIT_HELPER_DIR="+dir, "MEMGIT_HELPER_STOP="+point)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "stopped at "+point) {
		t.Fatalf("helper said %q, %v; want it stopped at %s", line, err, point)
	}
	return cmd
}

// kill9 kills a process with SIGKILL and reaps it.
func kill9(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}

// TestKilledCommitRecovers kills (SIGKILL) a committing memdir at each
// point where it holds a lock: the next commit removes what it left
// (index.lock, HEAD.lock, the branch's lock, their records, a temporary
// object) and commits, and git finds the repository sound.
func TestKilledCommitRecovers(t *testing.T) {
	requireGit(t)
	for _, tc := range []struct {
		point string
		locks []string // held at that point, relative to .git
		temps int      // temporary objects left
	}{
		{"object-temp", []string{"index.lock", "HEAD.lock"}, 1},
		{"head-locked", []string{"index.lock", "HEAD.lock"}, 0},
		{"ref-locked", []string{"index.lock", "HEAD.lock", "refs/heads/main.lock"}, 0},
	} {
		t.Run(tc.point, func(t *testing.T) {
			r, dir := newOwn(t)
			write(t, filepath.Join(dir, "user_x.md"), strings.Repeat("x", 100)+"\n")
			cmd := startStopped(t, dir, tc.point)
			gitDir := filepath.Join(dir, ".git")
			for _, l := range tc.locks {
				if _, err := os.Stat(filepath.Join(gitDir, l)); err != nil {
					t.Fatalf("the stopped commit does not hold %s: %v", l, err)
				}
				if recs := recordsOf(t, gitDir, l); len(recs) != 1 || !sameFile(t, recs[0], filepath.Join(gitDir, l)) {
					t.Fatalf("records of %s: %v, want one that is the lock file", l, recs)
				}
			}
			temps, _ := filepath.Glob(filepath.Join(gitDir, "objects", "pack", ".memdir-tmp-*"))
			if len(temps) != tc.temps {
				t.Fatalf("temporary objects %v, want %d", temps, tc.temps)
			}

			// Alive: refused, naming the holder; its locks are not foreign.
			_, err := r.Commit([]string{"user_x.md"}, "add user_x.md")
			if want := fmt.Sprintf("held by memdir (process %d), which is still running", cmd.Process.Pid); !strings.Contains(fmtErr(err), want) {
				t.Fatalf("Commit while the holder runs = %v, want %q", err, want)
			}
			if got := foreign(t, dir); len(got) != 0 {
				t.Fatalf("ForeignLocks while memdir holds them = %v", got)
			}

			kill9(t, cmd)
			gitTemp := filepath.Join(gitDir, "objects", "pack", "tmp_obj_Ab3dE1") // git's own: never touched
			write(t, gitTemp, "")
			res, err := r.Commit([]string{"user_x.md"}, "add user_x.md")
			if err != nil || !res.Committed() {
				t.Fatalf("Commit after the holder was killed = %+v, %v; want the stale locks removed", res, err)
			}
			left := append([]string(nil), temps...)
			for _, l := range tc.locks {
				left = append(left, filepath.Join(gitDir, l))
				if recs := recordsOf(t, gitDir, l); len(recs) != 0 {
					t.Errorf("records of %s left behind: %v", l, recs)
				}
			}
			for _, p := range left {
				if _, err := os.Stat(p); !os.IsNotExist(err) {
					t.Errorf("%s left behind (%v)", p, err)
				}
			}
			if _, err := os.Stat(gitTemp); err != nil {
				t.Errorf("git's temporary object was removed: %v", err)
			}
			os.Remove(gitTemp)
			if got := runGit(t, dir, "status", "--porcelain"); got != "" {
				t.Errorf("git status = %q", got)
			}
			if got := runGit(t, dir, "log", "-1", "--format=%s"); got != "add user_x.md\n" {
				t.Errorf("git log = %q", got)
			}
			runGit(t, dir, "fsck", "--full", "--strict")
		})
	}
}

// foreign is ForeignLocks of dir, as paths relative to its .git.
func foreign(t *testing.T, dir string) []string {
	t.Helper()
	reports, err := ForeignLocks(dir, time.Now())
	if err != nil {
		t.Fatalf("ForeignLocks: %v", err)
	}
	var out []string
	for _, rep := range reports {
		rel, _ := filepath.Rel(filepath.Join(dir, ".git"), rep.Path)
		out = append(out, filepath.ToSlash(rel))
		if rep.Remove != "rm '"+rep.Path+"'" || rep.Age < 0 {
			t.Errorf("report %+v: want the rm command and an age", rep)
		}
	}
	return out
}

// deadProcess is a process that has ended, as proc records it.
func deadProcess(t *testing.T) proc.ID {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	id := proc.Of(cmd.Process.Pid)
	kill9(t, cmd)
	if !id.Gone() {
		t.Fatalf("a reaped process %v is not gone", id)
	}
	return id
}
