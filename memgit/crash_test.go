package memgit

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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

func TestKilledCommitRecovers(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	write(t, filepath.Join(dir, "user_x.md"), strings.Repeat("x", 100)+"\n")
	cmd := startStopped(t, dir, "object-temp")
	lock := filepath.Join(dir, ".git", "index.lock")
	temps, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "tmp_obj_*"))
	if _, err := os.Stat(lock); err != nil || len(temps) != 1 {
		t.Fatalf("the stopped commit holds %v (lock: %v), want index.lock and one temporary object", temps, err)
	}

	// Alive: refused, naming the holder.
	_, err := r.Commit([]string{"user_x.md"}, "add user_x.md")
	if want := fmt.Sprintf("held by memdir (process %d), which is still running", cmd.Process.Pid); !strings.Contains(fmtErr(err), want) {
		t.Fatalf("Commit while the holder runs = %v, want %q", err, want)
	}

	kill9(t, cmd)
	gitTemp := filepath.Join(dir, ".git", "objects", "tmp_obj_Ab3dE1") // git's own: never touched
	write(t, gitTemp, "")
	res, err := r.Commit([]string{"user_x.md"}, "add user_x.md")
	if err != nil || !res.Committed() {
		t.Fatalf("Commit after the holder was killed = %+v, %v; want the stale lock removed", res, err)
	}
	for _, left := range []string{lock, filepath.Join(dir, ".git", ownerFile), temps[0]} {
		if _, err := os.Stat(left); !os.IsNotExist(err) {
			t.Errorf("%s left behind (%v)", left, err)
		}
	}
	if _, err := os.Stat(gitTemp); err != nil {
		t.Errorf("git's temporary object was removed: %v", err)
	}
	os.Remove(gitTemp)
	if got := runGit(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q", got)
	}
	runGit(t, dir, "fsck", "--full", "--strict")
}

func TestForeignIndexLockKept(t *testing.T) {
	requireGit(t)
	r, dir := newOwn(t)
	lock := filepath.Join(dir, ".git", "index.lock")
	write(t, lock, "")
	// A record of a lock that was another file: not this lock's.
	write(t, filepath.Join(dir, ".git", ownerFile), "pid 999999\nstart 1\ndev 1\nino 1\n")
	write(t, filepath.Join(dir, "user_x.md"), "x\n")
	for range 2 {
		_, err := r.Commit([]string{"user_x.md"}, "add user_x.md")
		if !strings.Contains(fmtErr(err), "memory is not being committed") || !strings.Contains(fmtErr(err), "index.lock exists") {
			t.Fatalf("Commit = %v, want a refusal saying memory is not being committed", err)
		}
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("git's index.lock was removed: %v", err)
	}
}

func TestTempWriter(t *testing.T) {
	for _, tc := range []struct {
		name string
		want process
		ok   bool
	}{
		{"tmp_obj_memdir_42_1234_abc", process{pid: 42, start: "1234"}, true},
		{"tmp_pack_memdir_42_0_abc", process{pid: 42}, true},
		{"tmp_obj_Ab3dE1", process{}, false},
		{"tmp_obj_memdir_x_1_a", process{}, false},
		{"pack-123.pack", process{}, false},
	} {
		got, ok := tempWriter(tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("tempWriter(%q) = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
